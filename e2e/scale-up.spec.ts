// An architect sizes a 240-SSD all-flash array from the published profile, typed in (no fio
// runs): the chassis IOPS, the daisy chain, the QoS picks within three PCIe slots and the table's
// marks are checked against the figures the page itself shows; a limit nothing meets and three
// bad fields at once are said plainly; the answer's PDF is downloaded and its pages rendered for
// a person to look at.
import type { Locator, Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SCREENSHOTS, expect, test } from './fixtures';

// as the paper writes them: the engine reads 45k as 45,000 (the CLI's --point does the same)
const PROFILE: [string, string][] = [['1', '45k'], ['6', '193000'], ['8', '155k']];

/** A figure as the page prints it ("174,000") as a number. */
const figure = (text: string): number => Number(text.replace(/,/g, ''));

async function typeProfile(panel: Locator): Promise<void> {
  await panel.getByLabel('typed in').check();
  for (const [i, [arrays, iops]] of PROFILE.entries()) {
    if (i > 0) await panel.getByRole('button', { name: 'Add a point' }).click();
    await panel.getByLabel(`arrays, point ${i + 1}`).fill(arrays);
    await panel.getByLabel(`IOPS, point ${i + 1}`).fill(iops);
  }
  await panel.getByLabel('Target SSDs').fill('240');
  await panel.getByLabel('SSDs per chassis or enclosure').fill('24');
  await panel.getByLabel('PCIe slots').fill('3');
}

/** The IOPS and PCIe slots of a summary line ("QoS-uniformity: … (3 PCIe slots): 350,784 IOPS"). */
async function pick(panel: Locator, lead: string): Promise<{ iops: number; slots: number }> {
  const line = panel.getByTestId('scale-up-summary').filter({ hasText: new RegExp(`^${lead}`) });
  const text = (await line.textContent())!;
  const found = /(\d+) PCIe slots?\): ([\d,]+) IOPS/.exec(text);
  expect(found, text).not.toBeNull();
  return { slots: Number(found![1]), iops: figure(found![2]!) };
}

async function openPanel(page: Page): Promise<Locator> {
  await page.getByRole('tab', { name: 'Models' }).click();
  const panel = page.locator('section.scale-up-panel');
  await expect(panel).toBeVisible();
  return panel;
}

test('the published profile sized to 240 SSDs within three PCIe slots', async ({
  app: page, scratch,
}) => {
  const panel = await openPanel(page);
  await typeProfile(panel);
  await panel.getByRole('button', { name: 'Size the array' }).click();
  const answer = panel.getByTestId('scale-up-answer');
  await expect(answer).toBeVisible();

  // the chassis: the mean of the best (193k at six arrays) and the most arrays' (155k at eight)
  const chassis = answer.getByTestId('scale-up-profile').locator('tr')
    .filter({ hasText: 'chassis IOPS' });
  await expect(chassis.locator('td').nth(1)).toHaveText('174,000');

  // the daisy chain near the published 27 K; both QoS picks within the slots, >= 10x the chain
  const chain = await pick(answer, 'Daisy chain');
  expect(chain.slots).toBe(1);
  expect(Math.abs(chain.iops - 27_000) / 27_000).toBeLessThanOrEqual(0.13);
  for (const lead of ['QoS-uniformity', 'QoS-priority']) {
    const best = await pick(answer, lead);
    expect(best.slots, lead).toBeLessThanOrEqual(3);
    expect(best.iops / chain.iops, lead).toBeGreaterThanOrEqual(10);
  }

  // the table marks exactly the architectures within three slots (the only limit given)
  await answer.getByRole('button', { name: 'Show all 42' }).click();
  const rows = answer.getByTestId('scale-up-row');
  await expect(rows).toHaveCount(42);
  const marks = await rows.evaluateAll((trs) => trs.map((tr) => ({
    within: tr.className === 'within',
    mark: tr.querySelector('td')!.textContent,
    slots: Number(tr.querySelectorAll('td')[3]!.textContent),
  })));
  expect(marks.filter((m) => m.within)).toHaveLength(14);
  expect(marks.filter((m) => m.within !== (m.slots <= 3))).toEqual([]);
  expect(marks.filter((m) => m.mark !== (m.within ? '✓' : '✗'))).toEqual([]);
  await answer.getByRole('button', { name: 'Show the first 24' }).click();

  await panel.screenshot({ path: join(SCREENSHOTS, 'scale-up.png') });

  // the answer's PDF, its pages rendered for a person to look at
  const download = page.waitForEvent('download');
  await answer.getByRole('button', { name: 'Export PDF' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('ssdprof-scale-up-240-ssds.pdf');
  const pdf = join(scratch, file.suggestedFilename());
  await file.saveAs(pdf);
  await expect(answer.getByRole('status')).toContainText('Saved');
  const text = execFileSync('pdftotext', [pdf, '-']).toString().replace(/\s+/g, ' ');
  expect(text).toContain('174,000');
  expect(text).toContain('QoS-uniformity');
  for (const old of readdirSync(SCREENSHOTS).filter((f) => f.startsWith('scale-up-pdf-'))) {
    rmSync(join(SCREENSHOTS, old));
  }
  execFileSync('pdftoppm', ['-r', '60', '-png', pdf, join(SCREENSHOTS, 'scale-up-pdf')]);
  const pages = readdirSync(SCREENSHOTS).filter((f) => f.startsWith('scale-up-pdf-'));
  expect(pages.length).toBeGreaterThan(0);
});

test('a limit no architecture meets is said plainly', async ({ app: page }) => {
  const panel = await openPanel(page);
  await typeProfile(panel);
  await panel.getByLabel('IOPS each array needs').fill('10000000');
  await panel.getByRole('button', { name: 'Size the array' }).click();
  const said = panel.getByTestId('scale-up-none-fit');
  await expect(said).toContainText('No architecture of the 42 meets every limit');
  await expect(said).toContainText('10,000,000 IOPS');
  await expect(panel.getByTestId('scale-up-row').filter({ hasText: '✓' })).toHaveCount(0);
});

test('three bad fields at once, each said beside its input', async ({ app: page }) => {
  const panel = await openPanel(page);
  await typeProfile(panel);
  await panel.getByLabel('Target SSDs').fill('0');
  await panel.getByLabel('PCIe slots').fill('-1');
  await panel.getByLabel('IOPS, point 3').fill('abc');
  await panel.getByRole('button', { name: 'Size the array' }).click();
  const target = panel.locator('[data-field="target_ssds"]');
  await expect(target).toContainText('0 is out of range');
  await expect(target).toContainText('e.g. 240');
  await expect(panel.locator('.field').filter({ has: page.getByLabel('Target SSDs') }))
    .toContainText('0 is out of range');
  const slots = panel.locator('[data-field="max_pcie_slots"]');
  await expect(slots).toContainText('-1 is out of range; allowed 1–30');
  await expect(panel.locator('.field').filter({ has: page.getByLabel('PCIe slots') }))
    .toContainText('-1 is out of range');
  await expect(panel.getByTestId('scale-up-points').locator('[data-field="points"]'))
    .toContainText("item 3, iops: 'abc' is not a number; write it like 155000, 155k or 1.2M");
  await expect(panel.getByTestId('scale-up-answer')).toHaveCount(0);
  await panel.screenshot({ path: join(SCREENSHOTS, 'scale-up-bad-input.png') });
});
