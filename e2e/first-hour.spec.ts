// A student's first hour, played as a new user would (browser mode, a fresh store, real fio): bad
// input, the student preset, a reload, a curve and a latency-target search, then the PDF. Each step
// checks the answer a view gives against the view's own data, not only that something was drawn.
import type { Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { SCREENSHOTS, designerSettled, expect, test } from './fixtures';

test.describe.configure({ mode: 'serial' });

const TAG = 'study=first-hour'; // other spec files share this worker's results

async function shortRuns(page: Page, target: string): Promise<void> {
  await page.getByLabel('Runtime').fill('1s');
  await page.getByLabel('Ramp (warm-up)').fill('0');
  await page.getByLabel('Test size').fill('32m');
  await page.getByLabel('Target', { exact: true }).fill(target);
  await designerSettled(page);
}

/** Every "N of M" a progress line shows while it runs: never more done than there are. */
async function watchCounts(page: Page): Promise<string[]> {
  return page.evaluate(() => new Promise<string[]>((resolve) => {
    const seen: string[] = [];
    const timer = setInterval(() => {
      const label = document.querySelector('label[for="overall-progress"]')?.textContent ?? '';
      if (label && seen.at(-1) !== label) seen.push(label);
      if (document.querySelector('.badge.done, .badge.cancelled, .badge.failed')) {
        clearInterval(timer);
        resolve(seen);
      }
    }, 50);
  }));
}

function counts(lines: string[]): { done: number; total: number }[] {
  return lines.flatMap((line) => {
    const match = /(\d+) of (?:at most )?(\d+) points/.exec(line);
    return match ? [{ done: Number(match[1]), total: Number(match[2]) }] : [];
  });
}

test('three bad fields are reported together, in ssdprof\'s words, and nothing starts', async ({ app: page, scratch }) => {
  await shortRuns(page, scratch);
  await page.getByLabel('Access size').fill('4kk');
  await page.getByLabel('Queue depth').fill('0');
  await page.getByLabel('Target', { exact: true }).fill(join(scratch, 'no-such-folder'));
  const problems = page.locator('p.problem[data-field]');
  await expect(problems.filter({ hasText: "'4kk'" })).toHaveCount(1);
  await expect(problems.filter({ hasText: '0 is out of range; allowed 1–4096, e.g. 32' })).toHaveCount(1);
  await expect(problems.filter({ hasText: 'does not exist' })).toHaveCount(1);
  await expect(problems.filter({ hasText: 'Input should' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Start' })).toBeDisabled();
  await page.screenshot({ path: join(SCREENSHOTS, 'first-hour-bad-input.png') });
});

test('the student preset: counted progress, no pooled figure without n, a summary to write from, and a reload keeps it',
  async ({ app: page, scratch }) => {
    await shortRuns(page, scratch);
    await page.getByLabel('a preset').check();
    await page.getByLabel('Preset', { exact: true }).selectOption('student');
    await page.getByLabel('Tags').fill(TAG);
    await expect(page.getByTestId('estimate')).toContainText('10 points');
    await page.getByRole('button', { name: 'Start' }).click();
    await expect(page.getByRole('heading', { name: /Live run/ })).toBeVisible();
    const seen = counts(await watchCounts(page));
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((c) => c.total === 10 && c.done <= c.total)).toBe(true);
    await page.getByRole('button', { name: 'Open results' }).click();

    // the summary: one-glance figures, a finding per factor the preset varied, and what they cannot tell
    const summary = page.getByTestId('student-summary');
    await expect(summary).toBeVisible();
    await expect(page.getByTestId('glance-table').locator('tbody tr')).not.toHaveCount(0);
    const findings = page.getByTestId('factor-findings');
    await expect(findings).toContainText('4KiB');
    await expect(findings).toContainText('128KiB');
    await expect(page.getByTestId('caveats')).toContainText(/once|one repeat|single/i);
    await expect(page.locator('[data-chart="iops-vs-size"] tbody tr')).not.toHaveCount(0);
    await page.screenshot({ path: join(SCREENSHOTS, 'first-hour-summary.png'), fullPage: true });

    // the preset measures 4 KiB QD1 reads in three series: they are not pooled into a mean ± CI; the 70 % and 50 %
    // mixes have a read, a write and an all-I/Os row
    const table = page.getByTestId('results-table');
    await expect(table.locator('tbody tr')).toHaveCount(14);
    await expect(table).not.toContainText('±');
    const heading = await page.getByRole('heading', { name: /^Results — sweep \d+/ }).textContent();

    // a reload keeps the last finished sweep, and nothing is offered as interrupted
    await page.reload();
    await page.getByRole('tab', { name: 'Results' }).click();
    await expect(page.getByRole('heading', { name: heading ?? '' })).toBeVisible();
    await expect(page.getByTestId('results-table').locator('tbody tr')).toHaveCount(14);
    await page.getByRole('tab', { name: 'Live run' }).click();
    await expect(page.getByText('Resume the last interrupted sweep')).toHaveCount(0);
  });

test('a curve counts its points and comes back drawn; its offered rates are separate settings',
  async ({ app: page, scratch }) => {
    await page.getByRole('tab', { name: 'Curves' }).click();
    await page.getByLabel('Curve target').fill(scratch);
    await page.getByLabel('Curve queue depth').fill('4');
    await page.getByLabel('Curve runtime per point').fill('1s');
    await page.getByLabel('Curve ramp').fill('0');
    await page.getByLabel('Curve test size').fill('32m');
    await page.getByLabel('Points (% of maximum)').fill('20,60');
    await page.getByRole('button', { name: 'Start curve' }).click();
    const seen = counts(await watchCounts(page));
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((c) => c.total === 3 && c.done <= 3)).toBe(true);
    // back on Curves by itself, with the curve and its knee
    await expect(page.getByTestId('curve-summary')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('curve-knee')).toBeVisible();
    // and the form as the student left it
    await expect(page.getByLabel('Curve queue depth')).toHaveValue('4');
    await expect(page.getByLabel('Points (% of maximum)')).toHaveValue('20,60');
    await page.screenshot({ path: join(SCREENSHOTS, 'first-hour-curve.png'), fullPage: true });

    // in Results, the probe and the two offered rates are three settings, none of them "repeats"
    await page.getByRole('tab', { name: 'History' }).click();
    const newest = page.getByTestId('history-table').locator('tbody tr').first();
    await newest.getByRole('button', { name: 'Open', exact: true }).click();
    await expect(page.getByTestId('results-table')).not.toContainText('±');
  });

test('the latency-target search names the depth with the most IOPS within the target', async ({ app: page, scratch }) => {
  await page.getByRole('tab', { name: 'Curves' }).click();
  await page.getByLabel('Curve target').fill(scratch);
  await page.getByLabel('Curve runtime per point').fill('0.5s');
  await page.getByLabel('Curve ramp').fill('0');
  await page.getByLabel('Curve test size').fill('32m');
  await page.getByLabel('Latency target', { exact: true }).fill('1s');
  await page.getByLabel('Deepest queue tried').fill('8');
  await page.getByRole('button', { name: 'Find the most IOPS within the target' }).click();
  const lines = await watchCounts(page);
  expect(lines.some((line) => /of 1 points/.test(line))).toBe(false);
  await expect(page.getByTestId('slo-answer')).toBeVisible({ timeout: 30_000 });
  // The search is shown while it runs ("Search N: running", its depths so far): its answer comes when it is done.
  await expect(page.getByTestId('slo-answer')).toContainText('gave the most IOPS', { timeout: 60_000 });
  const rows = page.locator('.slo-points table tbody tr');
  const table = await rows.evaluateAll((trs) => trs.map((tr) => {
    const cells = [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '');
    const iops = cells[2] ?? '';
    return { qd: cells[1] ?? '', iops: Number(iops.replace(/[^\d.]/g, '')) * (/k/i.test(iops) ? 1000 : 1),
      meets: cells.at(-2) === 'yes', answer: cells.at(-1) ?? '' };
  }));
  const [marked, ...others] = table.filter((row) => row.answer.includes('most IOPS'));
  expect(marked?.meets && others.length === 0).toBe(true);
  expect(marked?.iops).toBe(Math.max(...table.filter((row) => row.meets).map((row) => row.iops)));
  await expect(page.getByTestId('slo-answer')).toContainText(`${marked?.qd} gave the most IOPS`);
  await page.screenshot({ path: join(SCREENSHOTS, 'first-hour-slo.png'), fullPage: true });
});

test('a laptop-profile PTS test counts its rounds against the most it may take', async ({ app: page, scratch }) => {
  await page.getByRole('tab', { name: 'PTS' }).click();
  await page.getByLabel('Test', { exact: true }).selectOption('latency');
  await page.getByLabel('Profile').selectOption('laptop');
  await page.getByLabel('Target', { exact: true }).fill(scratch);
  await page.getByLabel('Test region').fill('16m');
  await page.getByLabel('Time per point').fill('0.5s');
  await page.getByLabel('Most rounds').fill('5');
  await page.getByLabel('Access sizes').fill('4k');
  await page.getByLabel('Read % of each mix').fill('100,0');
  await page.getByLabel('Preconditioning').selectOption('none');
  await expect(page.getByTestId('pts-estimate')).toContainText('2 points a round');
  await page.getByRole('button', { name: 'Start PTS test' }).click();
  const seen = await page.evaluate(() => new Promise<string[]>((resolve) => {
    const lines: string[] = [];
    const timer = setInterval(() => {
      const line = [...document.querySelectorAll('[data-testid="pts-progress"] p')]
        .map((p) => p.textContent ?? '').find((text) => text.startsWith('Round ')) ?? '';
      if (line && lines.at(-1) !== line) lines.push(line);
      if (document.querySelector('[data-testid="pts-finished"]')) {
        clearInterval(timer);
        resolve(lines);
      }
    }, 50);
  }));
  const rounds = seen.flatMap((line) => {
    const match = /^Round (\d+) of at most (\d+), point (\d+) of (\d+)/.exec(line);
    return match ? [match.slice(1).map(Number)] : [];
  });
  expect(rounds.length).toBeGreaterThan(0);
  const wrong = rounds.filter(([round, most, point, points]) => most !== 5 || round! > 5 || point! > points!);
  expect(wrong).toEqual([]);
});

test('the PDF opens with the summary and reports fits honestly', async ({ app: page, running }) => {
  await page.getByRole('tab', { name: 'History' }).click();
  await page.getByLabel('Tag', { exact: true }).fill(TAG);
  await expect(page.getByTestId('history-table').locator('tbody tr')).toHaveCount(10);
  await page.getByTestId('history-table').locator('tbody tr').first()
    .getByRole('button', { name: 'Open', exact: true }).click();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export PDF' }).click();
  const file = await download;
  const pdf = join(running.dir, file.suggestedFilename());
  await file.saveAs(pdf);
  const text = execFileSync('pdftotext', ['-l', '1', pdf, '-']).toString().replace(/\s+/g, ' ');
  expect(text).toMatch(/RND 4KiB/);
  const all = execFileSync('pdftotext', [pdf, '-']).toString();
  expect(all).not.toContain('bw_bytes_per_s');
  expect(all).not.toMatch(/R² 1\.000/);
});

test('History in a 900 px window wraps its tabs and its rows instead of scrolling the page sideways', async ({ app: page }) => {
  const wide = page.viewportSize();
  await page.setViewportSize({ width: 900, height: 800 });
  try {
    await page.getByRole('tab', { name: 'History' }).click();
    await page.getByLabel('Tag', { exact: true }).fill(TAG);
    await expect(page.getByTestId('history-table').locator('tbody tr')).toHaveCount(10);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(900);
    await page.screenshot({ path: join(SCREENSHOTS, 'history-900.png') });
  } finally {
    if (wide) await page.setViewportSize(wide);
  }
});
