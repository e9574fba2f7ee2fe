// A scaled-down SNIA PTS test from the GUI, on real fio against a test file on the local disk:
// the estimate says it is not PTS-compliant before it starts, the rounds run, and the report shows
// the convergence plot and the steady-state determination table.
import { join } from 'node:path';
import { SCREENSHOTS, expect, test } from './fixtures';

test('a laptop-profile PTS latency test: rounds, convergence plot and determination table', async ({ app: page, scratch }) => {
  await page.getByRole('tab', { name: 'PTS' }).click();
  await expect(page.getByRole('heading', { name: 'SNIA PTS tests' })).toBeVisible();
  await page.getByLabel('Test', { exact: true }).selectOption('latency');
  await page.getByLabel('Profile').selectOption('laptop');
  await page.getByLabel('Target', { exact: true }).fill(scratch);
  await page.getByLabel('Test region').fill('16m');
  await page.getByLabel('Time per point').fill('0.5s');
  await page.getByLabel('Most rounds').fill('6');
  await page.getByLabel('Access sizes').fill('4k');
  await page.getByLabel('Read % of each mix').fill('100,0');
  await page.getByLabel('Preconditioning').selectOption('none');
  await expect(page.getByTestId('pts-compliance')).toContainText('NOT PTS-compliant');
  await expect(page.getByTestId('pts-estimate')).toContainText('2 points a round');

  // a bad field is named beside it, and nothing starts
  await page.getByLabel('Read % of each mix').fill('100,150');
  await expect(page.locator('[data-field="mixes"]').first()).toContainText('150 is out of range; allowed read percentages from 0 to 100');
  await expect(page.getByRole('button', { name: 'Start PTS test' })).toBeDisabled();
  await page.getByLabel('Read % of each mix').fill('100,0');
  await expect(page.locator('[data-field="mixes"]')).toHaveCount(0);

  await page.getByRole('button', { name: 'Start PTS test' }).click();
  await expect(page.getByTestId('pts-check')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('pts-finished')).toBeVisible({ timeout: 120_000 });
  const report = page.getByTestId('pts-report');
  await expect(report).toBeVisible();
  // the convergence plot: one value per round at each access size
  const convergence = report.locator('[data-chart="pts-convergence"] tbody tr');
  await expect(convergence).not.toHaveCount(0);
  expect(await convergence.count()).toBeGreaterThanOrEqual(5);
  // the determination table: the gating variable with its excursions and the verdict, never hidden
  const determination = page.getByTestId('pts-determination');
  await expect(determination).toContainText('4KiB');
  await expect(determination.locator('tbody tr').first()).toContainText(/reached|NOT reached/);
  await expect(page.getByTestId('pts-drive-state')).not.toContainText('not recorded');
  await expect(page.getByTestId('pts-latency')).toContainText('4KiB');
  await page.screenshot({ path: join(SCREENSHOTS, 'pts.png'), fullPage: true });
});
