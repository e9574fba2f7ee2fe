// Every form names every bad field at once, each beside its own input, and starts nothing while any is bad:
// the PTS, sustained-write and trace-replay forms (checked by the engine as they are typed) and Models'
// Predict and Scale-out forms (their own checks and the engine's word together, on one ask).
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { ROOT, SCREENSHOTS, expect, test } from './fixtures';

/** The problem said beside the input named `field`, in full. */
function said(page: Page, field: string) {
  return page.locator(`p.problem[data-field="${field}"]`);
}

test('the PTS, sustained-write and trace-replay forms say every bad field beside it, and Start waits', async ({ app: page }) => {
  await page.getByRole('tab', { name: 'PTS' }).click();
  await page.getByLabel('Time per point').fill('fast');
  await page.getByLabel('Most rounds').fill('-3');
  await page.getByLabel('Access sizes').fill('4k,zz');
  await expect(said(page, 'roundTime')).toContainText("'fast' is not a duration");
  await expect(said(page, 'maxRounds')).toContainText('-3 is out of range');
  await expect(said(page, 'blockSizes')).toContainText("'zz' is not a size");
  await expect(page.getByRole('button', { name: 'Start PTS test' })).toBeDisabled();

  await page.getByRole('tab', { name: 'Sustained writes' }).click();
  await page.getByLabel('Region').fill('12 parsecs');
  await page.getByLabel('Sustain queue depth').fill('-1');
  await page.getByLabel('Idle intervals').fill('10s,x');
  await expect(said(page, 'size_bytes')).toContainText("'12 parsecs' has an unknown size unit");
  await expect(said(page, 'queue_depth')).toContainText('-1 is out of range');
  await expect(said(page, 'idle_s')).toContainText("'x' is not a duration");
  await expect(page.getByRole('button', { name: 'Start sustained writes' })).toBeDisabled();

  await page.getByRole('tab', { name: 'Trace replay' }).click();
  await page.getByLabel('Trace file').fill('/nonexistent/trace.csv');
  await page.getByLabel('From (s)').fill('abc');
  await page.getByLabel('To (s)').fill('-5');
  await page.getByLabel('Repeats').fill('x');
  // the window's ends beside From and To (they were one message under Disks, the second lost)
  await expect(said(page, 'start_s')).toContainText("'abc' is not a number");
  await expect(said(page, 'end_s')).toContainText('-5 is out of range');
  await expect(said(page, 'disks')).toHaveCount(0);
  await expect(said(page, 'trace')).toContainText('is not a file');
  await expect(said(page, 'repeats')).toContainText("'x' is not a whole number");
  await expect(page.getByRole('button', { name: 'Start replay' })).toBeDisabled();
  await page.screenshot({ path: join(SCREENSHOTS, 'replay-bad-fields.png'), fullPage: true });
});

test('Models\' Predict and Scale-out forms name their bad fields together on one ask', async ({ app: page, running }) => {
  // a run to learn from (the panels are shown once there is one): real fio output, imported as a lab would
  execFileSync(join(ROOT, 'engine', '.venv', 'bin', 'python'), ['-m', 'ssdprof', 'import', '--db', join(running.dir, 'results.sqlite3'),
    join(ROOT, 'engine', 'tests', 'data', 'fio', 'fio-3.33_randread_qd1.jsonplus.json')], { cwd: ROOT });
  await page.reload();
  await page.getByRole('tab', { name: 'Models' }).click();
  await page.locator('#predict-at').fill('zz');
  await page.getByLabel('Check run').fill('abc');
  await page.getByRole('button', { name: 'Fit and predict' }).click();
  const predict = page.locator('.predict-panel [role="alert"]');
  await expect(predict).toContainText('Check run: “abc” is not a run number');
  await expect(predict).toContainText("Predict at: 'zz' is not a size");

  await page.locator('#scaling-at').fill('x');
  await page.getByLabel('Client link (Gb/s)').fill('fast');
  await page.getByLabel('Node link (Gb/s)').fill('-2');
  await page.getByRole('button', { name: 'Fit and project' }).click();
  const scaling = page.locator('.scaling-panel [role="alert"]');
  await expect(scaling).toContainText('Client link: “fast” is not a positive number');
  await expect(scaling).toContainText('Node link: “-2” is not a positive number');
  await expect(scaling).toContainText("Predict at: 'x'");
});
