// A 70/30 random read/write run's p99, read where a student copies it from: Live run's finished point,
// the Results table's row of all its I/Os, the PDF's results table and `ssdprof compare --json`. One rule
// everywhere (the percentile of all its I/Os, from its reads' and writes' merged bins, as fio's
// unified_rw_reporting=mixed), each direction's own beside it; here checked to be one number.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, SCREENSHOTS, designerSettled, engineCall, expect, test } from './fixtures';

const PYTHON = join(ROOT, 'engine', '.venv', 'bin', 'python');

interface Run { id: number; mixed: { lat_ns: { p99: number } }; read: { lat_ns: { p99: number } }; write: { lat_ns: { p99: number } } }

/** The PDF's spelling of a latency in µs (report/layout.fmt_us). */
function pdfUs(ns: number): string {
  const us = ns / 1e3;
  const digits = us >= 100 ? 0 : us >= 10 ? 1 : 2;
  return us.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** Live run's spelling (src/lib/units.formatLatencyNs). */
function liveText(ns: number): string {
  return ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : `${(ns / 1e3).toFixed(1)} µs`;
}

test('a mixed run\'s p99 is one number, of all its I/Os, in Live run, Results, the PDF and compare --json',
  async ({ app: page, scratch, running }) => {
    test.setTimeout(120_000);
    await page.getByLabel('Runtime').fill('2s');
    await page.getByLabel('Ramp (warm-up)').fill('0');
    await page.getByLabel('Test size').fill('32m');
    await page.getByLabel('Target', { exact: true }).fill(scratch);
    await page.getByLabel('Pattern').selectOption('randrw');
    await page.getByLabel('Read/write mix (% reads)').fill('70');
    await page.getByLabel('Queue depth').fill('4');
    await page.getByLabel('Tags').fill('study=mixed-p99'); // other spec files share this worker's results
    await designerSettled(page);
    await page.getByRole('button', { name: 'Start' }).click();
    await expect(page.locator('.badge.done')).toBeVisible({ timeout: 60_000 });

    // Live run: the finished point's p99, headed as of all I/Os, each direction's beside it
    const finished = page.getByRole('table', { name: /Finished points/ });
    await expect(finished.getByRole('columnheader', { name: 'p99 latency, all I/Os' })).toBeVisible();
    const live = (await page.getByTestId('live-p99').last().textContent()) ?? '';
    await page.screenshot({ path: join(SCREENSHOTS, 'mixed-p99-live.png'), fullPage: true });

    await page.getByRole('button', { name: 'Open results' }).click();
    const rows = page.getByTestId('results-table').locator('tbody tr');
    await expect(rows).toHaveCount(3);
    const all = rows.filter({ has: page.locator('td', { hasText: /^all$/ }) });
    const id = Number(await all.locator('td').first().textContent());
    const run = (await engineCall<{ runs: Run[] }>(page, 'runs.list', { run_ids: [id] })).runs[0]!;
    const p99 = run.mixed.lat_ns.p99;
    expect(p99).not.toBe(run.read.lat_ns.p99);
    expect(p99).toBeGreaterThanOrEqual(Math.min(run.read.lat_ns.p99, run.write.lat_ns.p99));
    expect(p99).toBeLessThanOrEqual(Math.max(run.read.lat_ns.p99, run.write.lat_ns.p99));
    expect(live).toBe(liveText(p99));
    // run, workload, dir, IOPS, MB/s, MiB/s, mean, p50, p99
    await expect(all.locator('td').nth(8)).toHaveText((p99 / 1e3).toFixed(1));
    await expect(page.getByTestId('results-table').getByRole('caption')).toContainText('all: a run\'s reads and writes together');
    await page.screenshot({ path: join(SCREENSHOTS, 'mixed-p99-results.png'), fullPage: true });

    // the PDF's results table: the row of all its I/Os holds the same p99
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export PDF' }).click();
    const file = await download;
    const pdf = join(scratch, `mixed-${id}.pdf`);
    await file.saveAs(pdf);
    const text = execFileSync('pdftotext', ['-layout', pdf, '-']).toString();
    const row = text.split('\n').find((line) => new RegExp(`^\\s*${id}\\s+randrw 70%R.*\\sall\\s`).test(line));
    expect(row, text).toBeDefined();
    const figures = row!.split(/\sall\s/)[1]!.trim().split(/\s+/); // IOPS, MB/s, MiB/s, mean, p50, p99, p99.9
    expect(figures[5]).toBe(pdfUs(p99));
    expect(text.replace(/\s+/g, ' ')).toContain('all: a run\'s reads and writes together, its percentiles those of all its I/Os');
    const page1 = text.split('\f').findIndex((p) => new RegExp(`^\\s*${id}\\s+randrw 70%R.*\\sall\\s`, 'm').test(p)) + 1;
    execFileSync('pdftoppm', ['-r', '70', '-png', '-f', String(page1), '-l', String(page1), pdf,
      join(SCREENSHOTS, 'mixed-p99-pdf')]);

    // compare, as a lab script asks it: the same p99, named as of all I/Os
    const db = join(running.dir, 'results.sqlite3');
    const compare = (json: boolean) => execFileSync(PYTHON, ['-m', 'ssdprof', 'compare', String(id), '--metric', 'lat_ns_p99',
      '--spec', 'none', '--db', db, ...(json ? ['--json'] : [])], { cwd: ROOT, encoding: 'utf8' });
    const answer = JSON.parse(compare(true)) as { groups: { mean: number; n: number }[] };
    expect(answer.groups).toHaveLength(1);
    expect(answer.groups[0]!.mean).toBe(p99);
    const us = p99 / 1e3; // the CLI's format_number: whole above 1,000, else 4 significant digits
    const said = us >= 1000 ? us.toLocaleString('en-US', { maximumFractionDigits: 0 }) : String(Number(us.toPrecision(4)));
    expect(compare(false)).toContain(`${said} µs`);
  });
