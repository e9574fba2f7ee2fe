// A student's report: a run measured twice (before/after), compared with a vendor spec sheet
// (% of spec) and with the earlier run (Welch's verdict), then exported as a PDF from the GUI and
// checked with poppler: the workload, the device and the numbers on screen are in its text, and
// its pages are not blank.
import type { Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCREENSHOTS, expect, test } from './fixtures';

test.describe.configure({ mode: 'serial' });

async function measure(page: Page, scratch: string, tag: string): Promise<void> {
  await page.getByRole('tab', { name: 'Designer' }).click();
  await page.getByLabel('Runtime').fill('1s');
  await page.getByLabel('Ramp (warm-up)').fill('0');
  await page.getByLabel('Test size').fill('32m');
  await page.getByLabel('Target', { exact: true }).fill(scratch);
  await page.getByLabel('Repeats').fill('3');
  await page.getByLabel('Tags').fill(tag);
  await expect(page.getByTestId('estimate')).toContainText('3 points');
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(page.locator('.badge.done')).toBeVisible({ timeout: 60_000 });
}

/** The share of dark pixels on each page rendered by pdftoppm: a blank page has none. */
function inkOnPages(pdf: string, dir: string): number[] {
  execFileSync('pdftoppm', ['-r', '30', '-gray', pdf, join(dir, 'page')]);
  return readdirSync(dir).filter((f) => f.startsWith('page') && f.endsWith('.pgm')).sort().map((f) => {
    const data = readFileSync(join(dir, f));
    // binary PGM: "P5\n<w> <h>\n255\n" then one byte per pixel
    let offset = 0;
    for (let fields = 0; fields < 4; offset += 1) if (data[offset] === 0x0a || data[offset] === 0x20) fields += 1;
    const pixels = data.subarray(offset);
    return pixels.filter((v) => v < 128).length / pixels.length;
  });
}

/** Each page's words other than its running footer ("<title> · ssdprof <version>  page N"). */
function bodyWordsOnPages(pdf: string, pages: number): number[] {
  return Array.from({ length: pages }, (_, i) => {
    const text = execFileSync('pdftotext', ['-f', String(i + 1), '-l', String(i + 1), '-layout', pdf, '-']).toString();
    const lines = text.split('\n').filter((line) => line.trim() && !/· ssdprof \S+\s+page \d+\s*$/.test(line));
    return lines.join(' ').split(/\s+/).filter(Boolean).length;
  });
}

test('a run against a spec sheet and an earlier run, exported as a PDF', async ({ app: page, scratch, running }) => {
  await measure(page, scratch, 'phase=before');
  await measure(page, scratch, 'phase=after');
  await page.getByRole('button', { name: 'Open results' }).click();
  await expect(page.getByTestId('results-table').locator('tbody tr')).toHaveCount(3);

  // the virtual disk matches no spec sheet: say so, and let the student choose one
  await expect(page.getByText(/choose a spec sheet/).first()).toBeVisible();
  await page.getByLabel('Spec sheet', { exact: true }).selectOption({ label: 'Samsung 970 EVO Plus 1TB' });
  const pct = page.getByTestId('pct-of-spec').filter({ hasText: /\d+ % of spec/ }).first();
  await expect(pct).toBeVisible();
  const shownPct = (await pct.textContent())!.match(/(\d+) % of spec/)![1]!;
  await expect(page.getByTestId('spec-table')).toContainText('not compared'); // the QD32 rating: conditions differ
  const iopsChart = page.locator('[data-chart="iops-vs-size"] tbody tr');
  await expect(iopsChart.filter({ hasText: '19000' }).or(iopsChart.filter({ hasText: '19,000' })).first()).toBeAttached();

  await page.getByRole('searchbox', { name: 'Find earlier runs' }).fill('phase=before');
  const earlier = page.getByTestId('earlier-runs').getByRole('checkbox');
  await expect(earlier).toHaveCount(3);
  for (const box of await earlier.all()) await box.check();
  await page.getByRole('button', { name: 'Compare' }).click();
  const verdict = page.getByTestId('verdict');
  await expect(verdict).toContainText(/significant at 5%|not significant at 5%/);
  await expect(verdict).toContainText("Welch's t =");
  // both sides named, as the CLI names them (it read 'B is 20.0 % lower than A')
  await expect(verdict.first()).toContainText(/the set shown \(3 runs\) (is [\d.]+ % (higher|lower) than|vs) the earlier set \(3 runs\)/);
  await page.screenshot({ path: join(SCREENSHOTS, 'compare.png'), fullPage: true });

  const firstRow = page.getByTestId('results-table').locator('tbody tr').first();
  const shownIops = /[\d,]+/.exec((await firstRow.locator('td').nth(3).textContent())!)![0]; // without a warning mark

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export PDF' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^ssdprof-runs-\d+\.pdf$/);
  const pdf = join(running.dir, file.suggestedFilename());
  await file.saveAs(pdf);
  await expect(page.getByTestId('export-note')).toContainText('Saved');

  // reading order, one space between words (table cells wrap inside their columns)
  const text = execFileSync('pdftotext', [pdf, '-']).toString().replace(/\s+/g, ' ');
  expect(text).toContain('randread');
  expect(text).toMatch(/4 ?KiB/);
  expect(text).toContain('vda'); // the device the runs were measured on
  expect(text).toContain('970 EVO Plus');
  expect(text).toMatch(new RegExp(`19,000 IOPS \\(rand_read, 4 KiB, QD1\\) [\\d,.]+ IOPS ${shownPct} `)); // rated, measured, % of spec
  expect(text.replace(/,/g, '')).toContain(shownIops.replace(/,/g, ''));
  // no blank page: every page carries words of its own beside the footer, and the pages before the
  // last are well inked (the last may hold only a short closing section)
  const ink = inkOnPages(pdf, running.dir);
  expect(ink.length).toBeGreaterThan(1);
  expect(bodyWordsOnPages(pdf, ink.length).every((words) => words >= 3)).toBe(true);
  expect(ink.slice(0, -1).every((share) => share > 0.005)).toBe(true);
  expect(ink.at(-1)).toBeGreaterThan(0);
});
