// A lab engineer's models on real fio runs: an access-size sweep measured twice, a prediction of an
// untested size with its interval and leave-one-out errors, one run judged against the others, the
// scale-out what-if over runs tagged by node count, groups side by side, the factor heatmap; and
// their own spec sheet added, listed and deleted.
import type { Page } from '@playwright/test';
import { join } from 'node:path';
import { SCREENSHOTS, designerSettled, expect, test } from './fixtures';

test.describe.configure({ mode: 'serial' });

async function sweep(page: Page, scratch: string, sizes: string, tags: string, repeats = '1'): Promise<void> {
  await page.getByRole('tab', { name: 'Designer' }).click();
  await page.getByLabel('Pattern').selectOption('read');
  await page.getByLabel('Runtime').fill('1s');
  await page.getByLabel('Ramp (warm-up)').fill('0');
  await page.getByLabel('Test size').fill('32m');
  await page.getByLabel('Target', { exact: true }).fill(scratch);
  await designerSettled(page);
  await page.getByLabel('vary factors').check();
  await page.getByLabel('factor 1', { exact: true }).selectOption('block_size_bytes');
  await page.getByLabel('values of factor 1').fill(sizes);
  await page.getByLabel('Repeats').fill(repeats);
  await page.getByLabel('Tags').fill(tags);
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(page.locator('.badge.done')).toBeVisible({ timeout: 90_000 });
}

test('predict an untested size, judge a run, project more nodes, explain the factors', async ({ app: page, scratch }) => {
  await sweep(page, scratch, '16k, 64k, 512k', 'study=models, nodes=2', '2');
  await sweep(page, scratch, '16k, 64k, 512k', 'study=models, nodes=1', '2');
  await page.getByRole('button', { name: 'Open results' }).click();
  const rows = page.getByTestId('results-table').locator('tbody tr');
  await expect(rows).toHaveCount(6);
  const checked = (await rows.first().locator('td').first().textContent())!.trim();

  await page.getByRole('tab', { name: 'Models' }).click();
  await expect(page.getByTestId('model-runs')).toHaveText('6 run(s)');
  await page.locator('#predict-at').fill('128k');
  await page.getByRole('button', { name: 'Fit and predict' }).click();
  const fit = page.getByTestId('series-fit').first();
  await expect(fit.getByTestId('loo-table').locator('tbody tr')).toHaveCount(3);
  const predicted = fit.getByTestId('prediction-table').locator('tbody tr');
  await expect(predicted).toHaveCount(1);
  await expect(predicted.locator('td').first()).toHaveText('128KiB');
  await expect(predicted.locator('td').nth(1)).toHaveText(/^[\d,.]+$/);
  await expect(fit).toContainText(/R² -?\d\.\d{3}/);
  // three sizes: a line in log-log (a quadratic passes through all three); the left-out error first
  await expect(fit.getByTestId('loo-summary')).toContainText(/mean \|error\| [\d,.]+ %/);
  const quality = fit.getByTestId('fit-quality');
  await expect(quality).toContainText('6 runs at 3 settings: R² ');
  await expect(quality).toContainText('weak check: 3 settings for 2 parameters');
  await expect(page.locator('[data-chart="predict-0"] tbody tr').filter({ hasText: 'measured' })).toHaveCount(6);

  // Both sweeps from History by their common tag; one run judged against the model of the others.
  await page.getByLabel('found in History').check();
  await page.getByRole('searchbox', { name: 'Find runs' }).fill('study=models');
  await expect(page.getByTestId('model-runs')).toHaveText('12 run(s), every one matching');
  await page.getByLabel('Check run').fill(checked);
  await page.getByRole('button', { name: 'Fit and predict' }).click();
  await expect(page.getByTestId('anomaly').first()).toContainText(new RegExp(`Run #${checked}: [\\d,.]+ MB/s — (anomalous|as expected)`));

  await page.locator('#scaling-at').fill('4');
  await page.getByLabel('Client link (Gb/s)').fill('1');
  await page.getByLabel('Clients').fill('1');
  await page.getByRole('button', { name: 'Fit and project' }).click();
  const scaling = page.getByTestId('scaling-fit');
  await expect(scaling).toHaveCount(3); // one fit per access size, across 1 and 2 nodes
  await expect(scaling.first().getByTestId('binding')).toHaveText(/scalability|client network/);
  await expect(scaling.filter({ hasText: '512KiB' }).getByTestId('binding')).toHaveText('client network'); // 1 Gb/s = 125 MB/s

  // Groups and the heatmap ask the engine once they come near the screen, as a reader scrolls down
  await page.locator('.groups-panel').scrollIntoViewIfNeeded();
  await page.getByLabel('Split by').selectOption('tag nodes');
  await expect(page.locator('[data-chart="groups"] tbody tr')).toHaveCount(6); // 2 groups x 3 sizes
  await expect(page.getByTestId('groups-said')).toHaveText('nodes: 1 (6 runs), 2 (6 runs).');
  // named by the tag's values: 2 against 1, setting by setting, the node count left out of the setting
  await expect(page.getByTestId('verdict-summary')).toHaveText(/^2 against 1 at 3 setting\(s\): 2 higher at \d, lower at \d; /);
  await expect(page.getByTestId('group-verdicts')).toContainText(/2read 16KiB QD1 T1.*(significant|not significant) — 2 is [\d.]+ % (higher|lower) than 1/);
  await page.locator('.heatmap-panel').scrollIntoViewIfNeeded();
  const heat = page.getByTestId('heatmap');
  await expect(heat).toHaveCount(2);
  const sizeRow = heat.first().locator('tr').filter({ hasText: 'access size (log2)' });
  await expect(sizeRow.locator('td').first()).toHaveAttribute('data-value', /^0\.\d+|^1$/); // bandwidth grows with size
  await page.screenshot({ path: join(SCREENSHOTS, 'models.png'), fullPage: true });
});

test('a spec sheet of your own: added, refused while wrong, listed, deleted', async ({ app: page, running }) => {
  await page.getByRole('tab', { name: 'Spec sheets' }).click();
  await expect(page.getByTestId('spec-list').locator('tbody tr')).not.toHaveCount(0);
  await page.getByRole('button', { name: 'New spec sheet' }).click();
  await page.getByLabel('Id').fill('lab-nvme-1tb');
  await page.getByLabel('Vendor').fill('Lab');
  await page.getByLabel('Model', { exact: true }).fill('NVMe 1TB');
  await page.getByLabel('figure 1 value').fill('zero');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('spec-problems')).toContainText('figures 1 value');
  await page.getByLabel('figure 1 value').fill('450000');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('spec-note')).toContainText(`Saved Lab NVMe 1TB to ${running.dir}/data/ssdprof/specs/lab-nvme-1tb.json`);
  const mine = page.getByTestId('spec-list').locator('tbody tr').filter({ hasText: 'Lab NVMe 1TB' });
  await expect(mine).toContainText('yours');
  await expect(page.getByTestId('spec-detail')).toContainText('450,000 IOPS');
  await page.getByTestId('spec-detail').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByTestId('spec-note')).toContainText('Deleted');
  await expect(mine).toHaveCount(0);
});
