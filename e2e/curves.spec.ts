// A storage engineer's question, asked in the GUI: latency under offered load. A short curve on real
// fio is started from the Curves view; bad input is refused by field first; the chart is drawn from the
// engine's points (offered vs achieved, total latency), with the knee the engine named.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { SCREENSHOTS, expect, test } from './fixtures';

test('a curve is started from the GUI and drawn', async ({ app: page, scratch }) => {
  await page.getByRole('tab', { name: 'Curves' }).click();
  await page.getByLabel('Curve target').fill(scratch);
  await page.getByLabel('Curve queue depth').fill('4');
  await page.getByLabel('Curve runtime per point').fill('1s');
  await page.getByLabel('Curve ramp').fill('0');
  await page.getByLabel('Curve test size').fill('32m');
  // every bad point named at once, and Start waits until none is
  await page.getByLabel('Points (% of maximum)').fill('20,120,x');
  await expect(page.locator('[data-field="points"]')).toContainText("120 is out of range; 'x' is not a number; allowed whole percentages of the maximum from 1 to 100");
  await expect(page.getByRole('button', { name: 'Start curve' })).toBeDisabled();

  await page.getByLabel('Points (% of maximum)').fill('20,60');
  await page.getByRole('button', { name: 'Start curve' }).click();
  await expect(page.locator('.badge.done')).toBeVisible({ timeout: 90_000 });
  await page.getByRole('tab', { name: 'Curves' }).click();
  await expect(page.getByTestId('curve-summary')).toContainText(/maximum [\d,]+ IOPS \(fio\)/);
  await expect(page.getByTestId('curve-knee')).toContainText(/^Knee: (p99 |none named)/);
  // offered against achieved per point, as the PDF tabulates them; a knee never names a saturated point
  const points = page.getByTestId('curve-points').locator('tbody tr');
  await expect(points).toHaveCount(3);
  const saturated = await points.evaluateAll((rows) => rows.filter((r) => r.getAttribute('data-saturated') === 'yes')
    .map((r) => r.querySelector('th')?.textContent ?? ''));
  const knee = (await page.getByTestId('curve-knee').textContent()) ?? '';
  const read = knee.split('; the saturated point')[0]!; // the points left out are named after this
  for (const [, pct] of read.matchAll(/(\d+) %/g)) expect(saturated).not.toContain(`${pct} %`);
  if (saturated.length * 2 > 2) await expect(page.getByTestId('curve-saturation')).toContainText('offered rates saturated');
  else await expect(page.getByTestId('curve-saturation')).toHaveCount(0);
  const chart = page.locator('[data-chart="latency-vs-offered-load"]');
  await expect(chart.locator('canvas')).toBeVisible();
  await expect(chart.locator('tbody tr').filter({ hasText: 'p99.9' })).toHaveCount(2);

  // a spec sheet chosen: its rated 4 KiB random-read IOPS (queue depth unstated) and latency drawn, as the engine judged them
  await page.getByLabel('Curve spec sheet').selectOption({ label: 'Intel SSD DC P4500 1TB' });
  const spec = page.getByTestId('curve-spec');
  await expect(spec).toContainText('rated 279,500 IOPS (rand_read, 4 KiB, QD not stated): drawn (unstated');
  await expect(spec).toContainText('rated typical latency 85 µs (rand_read, size not stated, QD not stated): drawn');
  await expect(chart.locator('tbody tr').filter({ hasText: 'rated 279,500 IOPS' })).toHaveCount(2);

  await page.screenshot({ path: join(SCREENSHOTS, 'curves.png'), fullPage: true });

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export PDF' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^ssdprof-curve-\d+\.pdf$/);
  const pdf = join(scratch, file.suggestedFilename());
  await file.saveAs(pdf);
  await expect(page.getByTestId('curve-export-note')).toContainText('Saved');
  const text = execFileSync('pdftotext', [pdf, '-']).toString().replace(/\s+/g, ' ');
  expect(text).toContain('randread 4KiB QD4 T1');
  expect(text).toMatch(/Knee: (p99 |none named)/);
  expect(text).toContain('P4500');
});

test('the most IOPS within a latency target, from the same view', async ({ app: page, scratch }) => {
  await page.getByRole('tab', { name: 'Curves' }).click();
  await page.getByLabel('Curve target').fill(scratch);
  await page.getByLabel('Curve runtime per point').fill('0.5s');
  await page.getByLabel('Curve ramp').fill('0');
  await page.getByLabel('Curve test size').fill('32m');
  // three bad fields named together as they are typed, and nothing starts
  await page.getByLabel('Target percentile').fill('150');
  await page.getByLabel('Latency target', { exact: true }).fill('fast');
  await page.getByLabel('Deepest queue tried').fill('-3');
  await expect(page.locator('[data-field="percentile"]')).toContainText('must be above 0 and below 100');
  await expect(page.locator('[data-field="latency"]')).toContainText("'fast' is not a latency");
  await expect(page.locator('[data-field="max_qd"]')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Find the most IOPS within the target' })).toBeDisabled();
  await page.locator('section.latency-target').screenshot({ path: join(SCREENSHOTS, 'latency-target-bad-fields.png') });
  await page.getByLabel('Target percentile').fill('99');
  await page.getByLabel('Deepest queue tried').fill('256');
  await page.getByLabel('Latency target', { exact: true }).fill('0.5us');
  await expect(page.locator('[data-field="latency"]')).toContainText("'0.5us' is below 1us");

  // a target every depth meets here (1 s): every depth up to the deepest allowed is within it, and the
  // answer is the one of them with the most IOPS, checked against the search's own depth table
  await page.getByLabel('Latency target', { exact: true }).fill('1s');
  await page.getByLabel('Deepest queue tried').fill('4');
  await page.getByRole('button', { name: 'Find the most IOPS within the target' }).click();
  await expect(page.locator('.badge.done')).toBeVisible({ timeout: 90_000 });
  await page.getByRole('tab', { name: 'Curves' }).click();
  const rows = page.locator('.slo-points table tbody tr');
  await expect(rows.first()).toContainText('QD1');
  await expect(rows.filter({ hasText: 'QD4' })).toContainText('deepest within target');
  const table = await rows.evaluateAll((trs) => trs.map((tr) => {
    const cells = [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '');
    const iops = cells[2] ?? '';
    return { qd: cells[1] ?? '', iops: Number(iops.replace(/[^\d.]/g, '')) * (/k/i.test(iops) ? 1000 : 1),
      meets: cells.at(-2) === 'yes', answer: cells.at(-1) ?? '' };
  }));
  const within = table.filter((row) => row.meets);
  const [marked, ...others] = table.filter((row) => row.answer.includes('most IOPS'));
  expect(marked?.meets && others.length === 0).toBe(true);
  expect(marked?.iops).toBe(Math.max(...within.map((row) => row.iops)));
  await expect(page.getByTestId('slo-answer')).toContainText(`${marked?.qd} gave the most IOPS within p99`);

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export search PDF' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^ssdprof-slo-\d+\.pdf$/);
  const pdf = join(scratch, file.suggestedFilename());
  await file.saveAs(pdf);
  const text = execFileSync('pdftotext', [pdf, '-']).toString().replace(/\s+/g, ' ');
  expect(text).toMatch(/Latency target \d+: p99 within 1,000,000 µs/);
});
