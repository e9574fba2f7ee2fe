// A short sustained-write test from the GUI on the embedded default target (the engine's scratch
// folder), on real fio: the estimate before it starts, a bad field named beside it, the fill drawn
// live against bytes written, then the engine's verdict, phases and recovery rows, each checked
// against what the engine itself answers for the test (`sustain.get`).
import { join } from 'node:path';
import { SCREENSHOTS, engineCall, expect, test } from './fixtures';

interface Answer {
  id: number;
  samples: unknown[];
  fill_bytes: number;
  fill_seconds: number;
  fill_bw_bytes_per_s: number;
  phases: { index: number; name: string; bytes_written: number; duration_s: number; bw_bytes_per_s: number }[];
  verdict: { kind: string; sentence: string };
  recovery: { status: string }[];
}


test('a short sustained-write test: estimate, live fill, verdict, phases and recovery', async ({
  app: page,
}) => {
  test.setTimeout(180_000);
  await page.getByRole('tab', { name: 'Sustained writes' }).click();
  await expect(page.getByRole('heading', { name: 'Sustained writes', level: 2 })).toBeVisible();
  // small 4 KiB random writes at QD1 keep even a fast virtual disk busy for several seconds
  await page.getByLabel('Sustain pattern').selectOption('randwrite');
  await page.getByLabel('Sustain access size').fill('4k');
  await page.getByLabel('Sustain queue depth').fill('1');
  await page.getByLabel('Region').fill('128m');
  await page.getByLabel('Amount to write').fill('1g');
  await page.getByLabel('Recovery write').fill('32m');

  // a bad field is named beside it, and nothing starts
  await page.getByLabel('Idle intervals').fill('1s,2x');
  await expect(page.locator('[data-field="idle_s"]').first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Start sustained writes' })).toBeDisabled();
  await page.getByLabel('Idle intervals').fill('1s,2s');
  await expect(page.locator('[data-field="idle_s"]')).toHaveCount(0);

  // what it will write, for how long and against the drive's rating, before it starts
  const estimate = page.getByTestId('sustain-estimate');
  await expect(estimate).toContainText('the fill writes 1.00 GiB');
  await expect(estimate).toContainText('then 2 recovery writes of 32.00 MiB after 1s, 2s idle');
  await expect(page.getByTestId('sustain-total')).toHaveText('1.06 GiB');
  await expect(page.getByTestId('sustain-wear')).toContainText('Wear: 1.06 GiB written'); // one unit in the paragraph
  // beside Start, what the amount to write means; and a warning that a fast drive would end it too soon to judge
  await expect(page.getByTestId('sustain-fill-words'))
    .toHaveText('The fill writes 1.00 GiB, 1.06 GiB written in all with the recovery writes.');
  await expect(page.getByTestId('sustain-too-short')).toContainText('The fill may be too short to judge: a cliff is found from at least 10 s of writes');
  await page.getByLabel('Amount to write').fill('');
  await expect(page.getByTestId('sustain-fill-words')).toContainText('A blank amount to write fills the region once: 128.00 MiB here');
  await page.getByLabel('Amount to write').fill('1g');
  await page.screenshot({ path: join(SCREENSHOTS, 'sustain-estimate.png') });

  await page.getByRole('button', { name: 'Start sustained writes' }).click();
  const progress = page.getByTestId('sustain-progress');
  await expect(progress).toBeVisible();
  // the fill drawn live: each second a point at the bytes written so far
  const live = page.locator('[data-chart="sustain-live"] tbody tr');
  await expect(live.first()).toBeAttached({ timeout: 30_000 });
  await expect(page.getByTestId('sustain-doing'))
    .toContainText(/The fill: .* of 1\.00 GiB|Idle before|Recovery write/);
  await expect(page.getByTestId('sustain-finished'))
    .toContainText('done after', { timeout: 150_000 });

  const report = page.getByTestId('sustain-report');
  await expect(report).toBeVisible();
  const heading = await report.getByRole('heading').first().textContent();
  const id = Number(heading?.match(/#(\d+)/)?.[1]);
  const answer = await engineCall<Answer>(page, 'sustain.get', { sustain_id: id });
  // the verdict in the engine's words, its phases and recovery rows, and every second of the fill
  await expect(page.getByTestId('sustain-verdict')).toContainText(answer.verdict.sentence);
  await expect(page.getByTestId('sustain-verdict').locator('[data-kind]'))
    .toHaveAttribute('data-kind', answer.verdict.kind);
  await expect(page.locator('[data-chart="sustain-fill"] tbody tr'))
    .toHaveCount(answer.samples.length);
  const phases = page.getByTestId('sustain-phases').locator('tbody tr');
  await expect(phases).toHaveCount(answer.phases.length);
  const mbs = (b: number) => `${(b / 1e6).toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 })} MB/s`;
  for (const phase of answer.phases) {
    await expect(phases.nth(phase.index)).toContainText(`${phase.index + 1} ${phase.name}`);
    // a phase's speed is its bytes over its time (not the mean of its seconds), and the view shows that one
    expect(Math.abs(phase.bw_bytes_per_s - phase.bytes_written / phase.duration_s)).toBeLessThan(0.01 * phase.bw_bytes_per_s);
    await expect(phases.nth(phase.index)).toContainText(mbs(phase.bw_bytes_per_s));
  }
  expect(Math.abs(answer.fill_bw_bytes_per_s - answer.fill_bytes / answer.fill_seconds))
    .toBeLessThan(0.01 * answer.fill_bw_bytes_per_s);
  await expect(page.getByTestId('sustain-parameters')).toContainText(/1\.00 GiB written in [^:]+: [\d.,]+ MB\/s/);
  const recovery = page.getByTestId('sustain-recovery').locator('tbody tr');
  await expect(recovery).toHaveCount(2);
  for (const [i, row] of answer.recovery.entries()) {
    await expect(recovery.nth(i)).toContainText(row.status);
  }

  // listed among the earlier tests, and opened again from there
  await expect(page.getByLabel('Earlier tests')).toContainText(`#${id} `);
  await page.screenshot({ path: join(SCREENSHOTS, 'sustain.png'), fullPage: true });
});

test('a sustained-write test cancelled while idle names the test file it keeps and its true size', async ({
  app: page, scratch,
}) => {
  test.setTimeout(120_000);
  await page.getByRole('tab', { name: 'Sustained writes' }).click();
  await page.getByLabel('Sustain target').fill(scratch); // the worker's own folder: the kept file goes with it
  // a 64 MiB fill over a 32 MiB region: the file kept is the region's size, not the fill's
  await page.getByLabel('Region').fill('32m');
  await page.getByLabel('Amount to write').fill('64m');
  await page.getByLabel('Recovery write').fill('8m');
  await page.getByLabel('Idle intervals').fill('60s');
  await expect(page.getByRole('button', { name: 'Start sustained writes' })).toBeEnabled();
  await page.getByRole('button', { name: 'Start sustained writes' }).click();
  await expect(page.getByTestId('sustain-doing')).toContainText('Idle before', { timeout: 60_000 });
  await page.getByRole('button', { name: 'Cancel' }).click();
  const resume = page.getByRole('button', { name: /^Resume test #\d+$/ });
  await expect(resume).toBeVisible({ timeout: 30_000 });
  const id = Number((await resume.textContent())?.match(/#(\d+)/)?.[1]);
  const hint = resume.locator('..');
  await expect(hint).toContainText(`${join(scratch, `ssdprof-testfile-sustain${id}.dat`)} (32.00 MiB)`);
  await expect(hint).not.toContainText('as large as the fill');
  await page.screenshot({ path: join(SCREENSHOTS, 'sustain-resume.png'), fullPage: true });
});
