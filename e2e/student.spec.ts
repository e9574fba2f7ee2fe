// A student's whole flow against the real engine and real fio: preset, live progress, the
// curves from real results, History; bad input; Cancel mid-sweep.
import type { Locator, Page } from '@playwright/test';
import { join } from 'node:path';
import { readdirSync } from 'node:fs';
import { SCREENSHOTS, designerSettled, expect, fioDescendants, test } from './fixtures';

test.describe.configure({ mode: 'serial' });

async function fillShortRuns(page: Page, target: string): Promise<void> {
  await page.getByLabel('Runtime').fill('1s');
  await page.getByLabel('Ramp (warm-up)').fill('0');
  await page.getByLabel('Test size').fill('32m');
  await page.getByLabel('Target', { exact: true }).fill(target);
  await designerSettled(page);
}

async function points(chart: Locator): Promise<{ x: number; y: number }[]> {
  const rows = chart.locator('tbody tr');
  return rows.evaluateAll((trs) => trs.map((tr) => ({ x: Number(tr.getAttribute('data-x')), y: Number(tr.getAttribute('data-y')) })));
}

/** Runs in History now (other spec files share this worker's results), back on the designer afterwards. */
async function historyCount(page: Page): Promise<number> {
  await page.getByRole('tab', { name: 'History' }).click();
  const rows = page.getByTestId('history-table').locator('tbody tr');
  await rows.first().waitFor();
  const count = await rows.count();
  await page.getByRole('tab', { name: 'Designer' }).click();
  return count;
}

/** Distinct colours on a chart's canvas: a drawn chart has many, a blank one one or two. */
async function coloursOn(chart: Locator): Promise<number> {
  return chart.locator('canvas').evaluate((canvas: HTMLCanvasElement) => {
    const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
    const seen = new Set<number>();
    for (let i = 0; i < data.length; i += 16) seen.add((data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!);
    return seen.size;
  });
}

test('student preset: live progress, then the curves from real fio results', async ({ app: page, scratch }) => {
  await expect(page.getByRole('heading', { name: 'Design a measurement' })).toBeVisible();
  await fillShortRuns(page, scratch);
  await page.getByLabel('a preset').check();
  await page.getByLabel('Preset', { exact: true }).selectOption('student');
  await page.getByLabel('Tags').fill('study=student'); // other spec files share this worker's results
  await expect(page.getByTestId('estimate')).toContainText('10 points');
  await page.screenshot({ path: join(SCREENSHOTS, 'designer.png') });
  await page.getByRole('button', { name: 'Start' }).click();

  await expect(page.getByRole('heading', { name: /Live run/ })).toBeVisible();
  await expect(page.getByText(/Overall: [1-9] of 10 points/)).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('[data-chart="live-iops"] tbody tr')).not.toHaveCount(0);
  await expect.poll(() => coloursOn(page.locator('[data-chart="live-iops"]'))).toBeGreaterThan(5);
  await page.screenshot({ path: join(SCREENSHOTS, 'live.png') });
  await expect(page.locator('.badge.done')).toBeVisible({ timeout: 90_000 });
  await page.getByRole('button', { name: 'Open results' }).click();
  // queue depths 1, 10 and 100: the engine says in words where IOPS stops rising (or that it has not yet)
  await expect(page.getByTestId('observations').locator('li[data-code^="qd_"]').first()).toContainText('outstanding I/Os');

  // 4 KiB QD1 reads are measured by the access-size and the queue-depth series (and at 100 %
  // reads by the mix series): separate points of one run each, never "repeats" with one interval;
  // each chart's line is its own series, the other measurement a point after it
  const bySize = page.locator('[data-chart="iops-vs-size"]');
  await expect(bySize.locator('tbody tr')).toHaveCount(4); // the charts' series arrive beside the observations, in any order
  expect((await points(bySize)).map((p) => p.x)).toEqual([4096, 16384, 131072, 4096]);
  expect((await points(bySize)).every((p) => p.y > 0)).toBe(true);
  const byQd = await points(page.locator('[data-chart="latency-vs-qd"]'));
  expect(byQd.map((p) => p.x)).toEqual([1, 10, 100, 1, 1, 10, 100, 1]);
  expect(byQd.every((p) => p.y > 0)).toBe(true);
  const curve = await points(page.locator('[data-chart="latency-iops"]'));
  expect(curve).toHaveLength(12);
  expect(curve.every((p) => p.x > 0 && p.y > 0)).toBe(true);
  const byMix = await points(page.locator('[data-chart="iops-vs-mix"]'));
  expect(byMix.map((p) => p.x)).toEqual([0, 50, 70, 100, 100, 100]);
  await expect(page.getByTestId('no-pooled')).toContainText('Every figure is one run');
  for (const id of ['iops-vs-size', 'latency-vs-qd', 'latency-iops']) {
    expect(await coloursOn(page.locator(`[data-chart="${id}"]`))).toBeGreaterThan(5);
  }
  await expect(page.getByTestId('results-table').locator('tbody tr')).toHaveCount(14); // the 70 % and 50 % mixes have a read, a write and an all-I/Os row
  await page.screenshot({ path: join(SCREENSHOTS, 'results.png'), fullPage: true });
});

test('History opens an earlier run in Results', async ({ app: page }) => {
  await page.getByRole('tab', { name: 'History' }).click();
  const rows = page.getByTestId('history-table').locator('tbody tr');
  await page.getByLabel('Tag', { exact: true }).fill('study=student');
  await expect(rows).toHaveCount(10);
  await page.getByRole('searchbox', { name: 'Target, device or engine' }).fill('fio');
  await expect(rows).toHaveCount(10);
  await page.screenshot({ path: join(SCREENSHOTS, 'history.png') });
  const first = rows.first();
  const id = await first.getAttribute('data-run-id');
  await first.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(page.getByRole('heading', { name: `Results — run ${id}` })).toBeVisible();
  await expect(page.getByTestId('results-table').locator('tbody tr')).toHaveCount(1);
  await expect(page.locator('[data-chart="percentiles"] tbody tr').first()).toBeAttached();
});

test('a bad input shows the engine\'s message and starts nothing', async ({ app: page, scratch }) => {
  const before = await historyCount(page);
  await fillShortRuns(page, scratch);
  await page.getByLabel('Queue depth').fill('0');
  await expect(page.locator('[data-field="queue_depth"]')).toContainText('0 is out of range; allowed 1–4096, e.g. 32');
  await expect(page.getByRole('button', { name: 'Start' })).toBeDisabled();
  await page.getByLabel('Queue depth').press('Enter');
  await page.getByRole('tab', { name: 'Live run' }).click();
  await expect(page.getByText('Nothing is running')).toBeVisible();
  await page.getByRole('tab', { name: 'History' }).click();
  await expect(page.getByTestId('history-table').locator('tbody tr')).toHaveCount(before);
});

test('Cancel mid-sweep keeps the finished points and leaves no fio running', async ({ app: page, scratch, running }) => {
  const before = await historyCount(page);
  await fillShortRuns(page, scratch);
  await page.getByLabel('Runtime').fill('2s');
  await designerSettled(page);
  await page.getByLabel('vary factors').check();
  await page.getByLabel('values of factor 1').fill('');
  await page.getByLabel('factor 1', { exact: true }).selectOption('queue_depth');
  await page.getByLabel('values of factor 1').fill('1, 2, 4, 8, 16');
  await expect(page.getByTestId('estimate')).toContainText('5 points');
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByText('Overall: 1 of 5 points')).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.locator('.badge.cancelled')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(/finished point\(s\) are kept/)).toBeVisible();
  const kept = await page.locator('table.data', { hasText: 'Finished points' }).locator('tbody tr').count();
  expect(kept).toBeGreaterThanOrEqual(1);
  expect(kept).toBeLessThan(5);
  expect(fioDescendants(running.pid)).toEqual([]);
  expect(readdirSync(scratch).filter((f) => f.startsWith('ssdprof-testfile-'))).toEqual([]);
  await page.getByRole('tab', { name: 'History' }).click();
  await expect(page.getByTestId('history-table').locator('tbody tr')).toHaveCount(before + kept);
});
