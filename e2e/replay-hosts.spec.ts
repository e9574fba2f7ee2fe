// A recorded trace replayed from the GUI on two SSH test hosts at once (e2e/hosts_server.py): the hosts ticked as
// the Designer ticks them, the estimate saying in the engine's words whether each host plays the whole trace or its
// share of one split across them, the split replayed live per host, then each host beside what it was given,
// checked against `replay.get`: every I/O of the trace on exactly one host, each host's own count exact.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCREENSHOTS, engineCall, expect } from './fixtures';
import { addHost, hostsTest as test } from './hosts-app';
import { msrTrace } from './traces';

interface Host { host: string; read_io_count: number; write_io_count: number; recorded_read_count: number;
  recorded_write_count: number; span_change_pct: number | null; error: string | null }
interface Result { id: number; hosts: Host[]; hosts_mode: string | null; read_io_count: number; write_io_count: number }

test('a trace split across two hosts, each I/O on one of them, seen per host beside its share', async ({ hostsApp: { page, dir } }) => {
  test.setTimeout(180_000);
  await page.getByRole('tab', { name: 'Hosts' }).click();
  await addHost(page, 'h1');
  await addHost(page, 'h2');
  const trace = join(dir, 'hm_1.csv');
  writeFileSync(trace, msrTrace());
  const remote = join(dir, 'remote');
  mkdirSync(remote);

  await page.getByRole('tab', { name: 'Trace replay' }).click();
  await page.getByLabel('Trace file').fill(trace);
  await expect(page.getByTestId('trace-summary').first()).toContainText('400: ');
  await page.getByLabel('Queue depth').fill('4');
  const hosts = page.getByRole('group', { name: 'Hosts' });
  await hosts.getByLabel('h1').check();
  await hosts.getByLabel('h2').check();
  await expect(page.getByLabel('Replay target')).toHaveCount(0);  // this machine's target: not asked on hosts
  await page.getByLabel('Folder on each host').fill(remote);
  const said = page.getByTestId('replay-hosts-sentence');
  await expect(said).toContainText('The whole trace on each of h1, h2: 2 × 400 I/Os');
  await page.getByRole('radiogroup', { name: 'How the hosts share the trace' }).getByLabel(/split across them/).check();
  await expect(said).toContainText('Split across h1, h2: each of the 400 I/Os on exactly one host, dealt in turn (h1 200, h2 200)');
  await expect(page.getByTestId('replay-estimate')).toContainText('at most 4 in flight on each host');
  await page.screenshot({ path: join(SCREENSHOTS, 'replay-hosts.png'), fullPage: true });

  await page.getByRole('button', { name: 'Start replay' }).click();
  await expect(page.getByTestId('replay-live')).toBeVisible();
  await expect(page.locator('[data-chart="replay-live-rates"]')).toContainText('h2 replayed', { timeout: 60_000 });

  const report = page.getByTestId('replay-report');
  await expect(report).toBeVisible({ timeout: 120_000 });
  const id = Number((await report.getByRole('heading').first().textContent())?.match(/#(\d+)/)?.[1]);
  const answer = await engineCall<Result>(page, 'replay.get', { replay_id: id });
  expect(answer.hosts_mode).toBe('split');
  expect(answer.read_io_count + answer.write_io_count).toBe(400);  // every I/O once across the hosts
  for (const host of answer.hosts) {
    expect(host.error).toBeNull();
    expect([host.read_io_count, host.write_io_count]).toEqual([host.recorded_read_count, host.recorded_write_count]);
    expect(host.read_io_count + host.write_io_count).toBe(200);
    const row = page.getByTestId('replay-hosts-table').locator(`tr[data-host="${host.host}"]`);
    await expect(row.locator('td').nth(0)).toHaveText(`${host.read_io_count} / ${host.recorded_read_count}`);
    await expect(row.locator('td').nth(1)).toHaveText(`${host.write_io_count} / ${host.recorded_write_count}`);
    const change = host.span_change_pct!;
    await expect(row.locator('td').nth(4)).toHaveText(`${change > 0 ? '+' : ''}${change.toFixed(1)} %`);
  }
  await expect(page.getByTestId('replay-hosts-mode')).toContainText('On h1, h2: one trace split across the hosts');
  await expect(page.locator('[data-chart="replay-host-rates"] tbody tr').first()).toBeAttached();
  await page.screenshot({ path: join(SCREENSHOTS, 'replay-hosts-result.png'), fullPage: true });
});
