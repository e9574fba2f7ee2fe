// A lab engineer's first cluster run: two SSH test hosts (network namespaces with their own sshd,
// made by engine/tests/infra through e2e/hosts_server.py) are added with their host keys'
// fingerprints accepted by hand, tested, run on at once, and seen per host and in aggregate.
// Skipped, with the reason, where the test hosts cannot be made (they need root and ip netns).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { SCREENSHOTS, designerSettled, expect } from './fixtures';
import { addHost, hostsTest as test } from './hosts-app';

const count = (text: string | null) => Number((text ?? '').replace(/,/g, ''));

test('add two hosts, run on both at once, see each host and the aggregate', async ({ hostsApp: { page, dir } }) => {
  await page.getByRole('tab', { name: 'Hosts' }).click();
  await addHost(page, 'h1');
  await addHost(page, 'h2');
  const h1 = page.getByTestId('hosts-table').locator('tr[data-host="h1"]');
  await h1.getByRole('button', { name: 'Test connection' }).click();
  await expect(h1.getByTestId('probe')).toContainText(/\d+ CPUs; fio-3\.\d+ \(.*libaio.*\); Ceph tools: .*; NICs: /);
  await page.screenshot({ path: join(SCREENSHOTS, 'hosts.png') });

  const remote = join(dir, 'remote');
  mkdirSync(remote);
  await page.getByRole('tab', { name: 'Designer' }).click();
  await page.getByLabel('Runtime').fill('2s');
  await page.getByLabel('Ramp (warm-up)').fill('0');
  await page.getByLabel('Test size').fill('32m');
  await designerSettled(page);
  await page.getByRole('group', { name: 'Hosts' }).getByLabel('h1').check();
  await designerSettled(page);
  await page.getByRole('group', { name: 'Hosts' }).getByLabel('h2').check();
  await page.getByLabel('Folder on each host').fill(remote);
  await expect(page.getByTestId('estimate')).toContainText('1 point');
  await page.getByRole('button', { name: 'Start' }).click();
  const live = page.getByTestId('live-hosts');  // each host's seconds, as they arrive
  await expect(live.locator('tr[data-host="h1"]')).toBeVisible({ timeout: 60_000 });
  await expect(live.locator('tr[data-host="h2"]')).toBeVisible();
  await expect(page.locator('[data-chart="live-iops"] tbody tr').first()).toBeAttached();
  await expect(page.locator('.badge.done')).toBeVisible({ timeout: 60_000 });
  await expect(live.locator('tr[data-host="h1"]')).toContainText('finished');
  await page.screenshot({ path: join(SCREENSHOTS, 'hosts-live.png') });
  const lastSecond = (await live.locator('tr[data-host="h2"] td').nth(2).textContent()) ?? '';
  expect(parseFloat(lastSecond) * (lastSecond.endsWith('k') ? 1000 : 1)).toBeGreaterThan(0); // IOPS in its last second, e.g. 12.3k
  await page.getByRole('button', { name: 'Open results' }).click();

  const rows = page.getByTestId('host-table').locator('tbody tr');
  await expect(rows).toHaveCount(3);
  expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-host')))).toEqual(['h1', 'h2', 'aggregate']);
  const readIops = await rows.evaluateAll((trs) => trs.map((tr) => tr.querySelectorAll('td')[2]!.textContent));
  const [a, b, total] = readIops.map(count) as [number, number, number];
  expect(a).toBeGreaterThan(0);
  expect(b).toBeGreaterThan(0);
  expect(Math.abs(total - (a + b))).toBeLessThanOrEqual(0.02 * total); // summed over the overlapping time
  // How much of each host's queue reached its disk, from the host's own /proc/diskstats.
  const atDisk = await rows.evaluateAll((trs) => trs.slice(0, 2).map((tr) => tr.querySelectorAll('td')[8]!.textContent));
  for (const cell of atDisk) expect(cell).toMatch(/^\d+\.\d of \d+$/);
  await expect(page.locator('[data-chart="host-iops"] tbody tr')).toHaveCount(2);
  await expect(page.locator('[data-chart="host-cpu"] tbody tr').first()).toBeAttached();
  await page.screenshot({ path: join(SCREENSHOTS, 'hosts-results.png'), fullPage: true });
});

test('a storage node watched during a run on one client, and each drive\'s own word', async ({ hostsApp: { page, dir } }) => {
  await page.getByRole('tab', { name: 'Hosts' }).click();
  await addHost(page, 'h1');
  await page.getByLabel(/monitor-only/).check();
  await page.getByLabel('Host', { exact: true }).fill('h2');  // a storage node: its probe asks for no fio
  await page.getByRole('button', { name: 'Add host' }).click();
  await expect(page.getByTestId('fingerprint')).toHaveText(/^SHA256:/);
  await page.getByRole('button', { name: /^Accept .* key and add$/ }).click();
  const h2 = page.getByTestId('hosts-table').locator('tr[data-host="h2"]');
  await expect(h2.getByTestId('role')).toContainText('monitor-only');
  await page.screenshot({ path: join(SCREENSHOTS, 'hosts-monitor-only.png') });

  const remote = join(dir, 'remote');
  mkdirSync(remote);
  await page.getByRole('tab', { name: 'Designer' }).click();
  await page.getByLabel('Runtime').fill('3s');
  await page.getByLabel('Ramp (warm-up)').fill('0');
  await page.getByLabel('Test size').fill('32m');
  await designerSettled(page);
  await page.getByRole('group', { name: 'Hosts' }).getByLabel('h1').check();
  await page.getByLabel('Folder on each host').fill(remote);
  await expect(page.getByTestId('estimate')).toContainText('1 point');
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(page.locator('.badge.done')).toBeVisible({ timeout: 90_000 });
  await page.getByRole('button', { name: 'Open results' }).click();

  // h2 ran no I/O; it was watched: its seconds, CPU and interfaces, in the run's own table.
  const watched = page.getByTestId('watched-table').locator('tr[data-host="h2"]');
  await expect(watched).toBeVisible();
  expect(Number(await watched.locator('td').nth(1).textContent())).toBeGreaterThanOrEqual(2);
  await expect(watched.locator('td').nth(5)).toHaveText('watched');
  await expect(page.getByTestId('host-table').locator('tr[data-host="h2"]')).toHaveCount(0);
  // The disk beneath h1's folder was asked for its own word before and after the point, over h1's session.
  const drive = page.getByTestId('drive-health-table');
  await expect(drive).toBeVisible();
  await expect(drive.locator('caption')).toContainText('/dev/');
  await page.screenshot({ path: join(SCREENSHOTS, 'hosts-watched.png'), fullPage: true });
});
