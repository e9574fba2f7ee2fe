// A recorded trace replayed from the GUI on real fio: a malformed line named beside the trace field, what
// the trace holds shown as soon as it is named (checked against the engine's own `trace.describe`), one disk of
// it chosen and estimated, the replay drawn live beside the recorded rate, then the engine's comparison
// (replayed beside recorded p50/p99, the timing kept or not), each figure checked against `replay.get`.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCREENSHOTS, engineCall, expect, test } from './fixtures';
import { msrTrace } from './traces';


/** A latency as the page writes it (src/lib/units.formatLatencyNs): µs with one decimal, ms from 1 ms. */
const latency = (ns: number | null) => (ns === null ? '–' : ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : `${(ns / 1e3).toFixed(1)} µs`);

interface Summary { io_count: number; read_count: number; duration_s: number }
interface Beside { direction: string; recorded_p50_ns: number | null; replayed_p50_ns: number | null }
interface Result { id: number; timing_sentence: string; latency: Beside[]; read_io_count: number; write_io_count: number }

test('a trace described, one disk of it replayed as recorded, and compared with the recording', async ({ app: page }) => {
  test.setTimeout(120_000);
  const dir = mkdtempSync('/var/tmp/ssdprof-e2e-trace-');
  try {
    const good = join(dir, 'hm_1.csv');
    const bad = join(dir, 'hm_bad.csv');
    writeFileSync(good, msrTrace());
    writeFileSync(bad, `${msrTrace()}128166372043061629,hm,0,Read,4096,4k,10\r\n`);
    await page.getByRole('tab', { name: 'Trace replay' }).click();
    await expect(page.getByRole('heading', { name: 'Trace replay', level: 2 })).toBeVisible();

    // a malformed line stops the import, named by its number beside the trace field
    await page.getByLabel('Trace file').fill(bad);
    await expect(page.locator('[data-field="trace"]').first()).toContainText("line 401: Size '4k' is not a whole number");
    await expect(page.getByRole('button', { name: 'Start replay' })).toBeDisabled();

    // what the trace holds, before anything runs: the engine's own reading
    await page.getByLabel('Trace file').fill(good);
    const summary = page.getByTestId('trace-summary').first();
    await expect(summary).toBeVisible();
    const described = await engineCall<Summary>(page, 'trace.describe', { trace: good });
    await expect(summary).toContainText(`${described.io_count}: ${described.read_count} reads`);
    await expect(summary).toContainText(`${described.duration_s.toFixed(3)} s, first to last I/O`);
    await expect(page.locator('[data-chart="trace-rate"] tbody tr').first()).toBeAttached();
    await page.screenshot({ path: join(SCREENSHOTS, 'replay-trace.png'), fullPage: true });

    // one disk of it, as recorded, at most 8 in flight
    await page.getByLabel('Disks').fill('1');
    await page.getByLabel('Queue depth').fill('8');
    const estimate = page.getByTestId('replay-estimate');
    await expect(estimate).toContainText('Replays 200 of the 400 I/Os over 4s as recorded, at most 8 in flight');
    await page.getByRole('button', { name: 'Start replay' }).click();
    await expect(page.getByTestId('replay-live')).toBeVisible();

    const report = page.getByTestId('replay-report');
    await expect(report).toBeVisible({ timeout: 60_000 });
    const id = Number((await report.getByRole('heading').first().textContent())?.match(/#(\d+)/)?.[1]);
    const answer = await engineCall<Result>(page, 'replay.get', { replay_id: id });
    expect(answer.read_io_count + answer.write_io_count).toBe(200);
    await expect(page.getByTestId('replay-timing')).toContainText(answer.timing_sentence.slice(1, 60));
    const reads = answer.latency.find((b) => b.direction === 'read')!;
    const row = page.getByTestId('replay-latency-table').locator('tbody tr').first();
    await expect(row).toContainText(latency(reads.recorded_p50_ns));
    await expect(row).toContainText(latency(reads.replayed_p50_ns));
    await expect(page.locator('[data-chart="replay-rates"] tbody tr').first()).toBeAttached();
    await expect(page.getByLabel('Earlier replays')).toContainText(`#${id} `);
    await page.screenshot({ path: join(SCREENSHOTS, 'replay.png'), fullPage: true });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
