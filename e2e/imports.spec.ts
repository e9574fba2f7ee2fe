// A student's own QD1/QD32 runs (real fio, stored by `ssdprof run`) and a friend's CrystalDiskMark
// export imported in History, then drawn together in Results: the CDM figures beside the student's,
// with the note that their latencies are of different kinds.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, SCREENSHOTS, expect, test } from './fixtures';

test.describe.configure({ mode: 'serial' });

const PYTHON = join(ROOT, 'engine', '.venv', 'bin', 'python');

/** The student's own random reads at QD1 and QD32, stored in this worker's results database. */
function measureOwnRuns(dir: string, scratch: string): void {
  for (const qd of ['1', '32']) {
    execFileSync(join(ROOT, 'engine', '.venv', 'bin', 'ssdprof'), ['run', '--db', join(dir, 'results.sqlite3'), '--rw', 'randread',
      '--bs', '4k', '--qd', qd, '--runtime', '1s', '--ramp', '0', '--size', '32m', '--target', scratch, '--tag', 'owner=student'],
    { cwd: ROOT, stdio: 'pipe', timeout: 120_000 });
  }
}

/** A CrystalDiskMark 8 export as CrystalDiskMark writes it (the engine's tests' writer of its layout). */
function crystalDiskMarkExport(scratch: string): string {
  const path = join(scratch, 'friend-cdm.txt');
  execFileSync(PYTHON, ['-c', 'import sys; sys.path.insert(0, "engine/tests/store/imports"); from tool_outputs import '
    + `crystaldiskmark8; open(${JSON.stringify(path)}, "wb").write(crystaldiskmark8(comment="Samsung 970 EVO Plus"))`], { cwd: ROOT });
  return path;
}

test('a CrystalDiskMark export imported in History overlays the student\'s own QD1/QD32 runs in Results',
  async ({ app: page, running, scratch }) => {
    test.setTimeout(180_000);
    measureOwnRuns(running.dir, scratch);
    const file = crystalDiskMarkExport(scratch);
    await page.getByRole('tab', { name: 'History' }).click();
    await page.getByLabel('Import result files').setInputFiles(file);
    const outcome = page.getByTestId('import-outcome');
    await expect(outcome).toContainText('friend-cdm.txt (CrystalDiskMark text export): 8 run(s) stored');
    await page.screenshot({ path: join(SCREENSHOTS, 'history-import.png'), fullPage: true });

    // the same file again: recognised, nothing stored twice
    await page.getByLabel('Import result files').setInputFiles(file);
    await expect(outcome).toContainText('8 already stored from the same content');

    await page.getByRole('button', { name: 'Clear selection' }).click();
    const rows = page.getByTestId('history-table').locator('tbody tr');
    // the student's own two runs and the friend's two; the suite's other specs store runs of these settings
    // in the same store (a latency-target search, PTS rounds, an imported fio run): not these
    const wanted = rows.filter({ hasText: /randread 4KiB QD(1|32) T1/ }).filter({ hasText: /owner=student|CrystalDiskMark/ });
    await expect(wanted).toHaveCount(4);
    for (const row of await wanted.all()) await row.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Open 4 selected' }).click();

    await expect(page.getByRole('heading', { name: /Results/ })).toBeVisible();
    const note = page.getByTestId('chart-latency-note');
    await expect(note).toContainText('latencies of different kinds are drawn together');
    await expect(note).toContainText('total latency, mean only (no percentiles)');
    // CrystalDiskMark's own figures on the latency chart beside the student's: RND4K Q1T1 68.06 µs, Q32T1 204.37 µs
    const chart = page.locator('[data-chart="latency-vs-qd"]');
    const points = await chart.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => ({
      series: tr.querySelector('td')?.textContent ?? '', x: Number(tr.getAttribute('data-x')), y: Number(tr.getAttribute('data-y')) })));
    const near = (x: number, y: number) => points.some((p) => p.x === x && Math.abs(p.y - y) < 0.01);
    expect(near(1, 68.06) && near(32, 204.37)).toBe(true);
    expect(new Set(points.map((p) => p.series)).size).toBeGreaterThanOrEqual(2);
    await page.screenshot({ path: join(SCREENSHOTS, 'results-cdm-overlay.png'), fullPage: true });
  });
