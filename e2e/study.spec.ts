// A lab study in the browser, as bench/study_scale.py makes it (its small form: 2 node counts x SATA
// and PCIe x 3 chunk sizes of sequential reads on 8 hosts, each setting 12 times): Models finds it,
// Predict and Scaling draw every measured point their legends name (72 and 48 a series, where the
// view once drew none past 60), say that the interface tag splits the runs into groups that differ
// and fit each apart; Groups compares SATA and PCIe by name; no view holds more than 5,000 elements;
// and what was typed and answered is there again after a tab switch and a reload.
import type { Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { undrawnSeries, watchCharts } from './charts-drawn';
import { MODE, ROOT, SCREENSHOTS, expect, startBrowserMode, test, type Running } from './fixtures';

test.describe.configure({ mode: 'serial' });
test.skip(MODE === 'electron', 'the study is served from its own store by ssdprof serve (browser mode)');

const MOST_ELEMENTS = 5000;
let server: Running;
let dir: string;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dir = mkdtempSync('/var/tmp/ssdprof-e2e-study-');
  const db = join(dir, 'study.sqlite3');
  execFileSync(join(ROOT, 'engine', '.venv', 'bin', 'python'),
    [join(ROOT, 'bench', 'study_scale.py'), '--db', db, '--keep', '--build-only', '--small', '--repeats', '12'], { cwd: ROOT, stdio: 'ignore' });
  server = await startBrowserMode(dir, ['-m', 'ssdprof', 'serve', '--port', '0', '--db', db]);
});

test.afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function studyPage(): Promise<Page> {
  const page = await server.open();
  await watchCharts(page);
  await page.reload();
  await page.getByRole('tab', { name: 'Models' }).click();
  await page.getByLabel('found in History').check();
  return page;
}

const elements = (page: Page) => page.evaluate(() => document.getElementsByTagName('*').length);

test('every series a legend names is drawn, a split that differs is said and fitted apart, and Models keeps it all', async () => {
  const page = await studyPage();
  await page.getByRole('searchbox', { name: 'Find runs' }).fill('study=ceph');
  await expect(page.getByTestId('model-runs')).toHaveText('144 run(s), every one matching');

  await page.getByRole('button', { name: 'Fit and predict' }).click();
  const advice = page.locator('.predict-panel').getByTestId('split-advice');
  await expect(advice).toContainText(/^interface splits these runs into groups that differ: SATA against PCIe differs at \d+ of the 6 settings/);
  // one series per node count, SATA and PCIe mixed: 2 interfaces x 3 sizes x 12 repeats
  await expect(page.locator('[data-chart="predict-0"] tbody tr').filter({ hasText: 'measured' })).toHaveCount(72);
  expect(await undrawnSeries(page)).toEqual([]);
  await advice.getByRole('button', { name: 'Fit each interface apart (PCIe, SATA)' }).click();
  await expect(page.locator('.predict-panel').getByTestId('split-by')).toHaveText(/^Each interface fitted apart\./);
  await expect(page.getByTestId('series-index').locator('tbody tr')).toHaveCount(4); // 2 node counts x 2 interfaces
  await expect(page.getByTestId('series-fit').locator('h4')).toHaveText('read jobs=1 QD4 on 8 hosts nodes=2 interface=SATA');
  await expect(page.locator('[data-chart="predict-0"] tbody tr').filter({ hasText: 'measured' })).toHaveCount(36);
  expect(await undrawnSeries(page)).toEqual([]);

  await page.getByRole('button', { name: 'Fit and project' }).click();
  await expect(page.locator('.scaling-panel').getByTestId('split-advice')).toContainText('interface splits these runs');
  await expect(page.getByTestId('scaling-index').locator('tbody tr')).toHaveCount(3); // one per chunk size
  await expect(page.locator('[data-chart="scaling-0"] tbody tr').filter({ hasText: 'measured' })).toHaveCount(48);
  expect(await undrawnSeries(page)).toEqual([]);

  const groups = page.locator('.groups-panel');
  await groups.scrollIntoViewIfNeeded(); // it asks the engine once it comes near the screen
  await expect(groups.getByTestId('groups-said')).toHaveText(
    'interface splits these runs into 2 groups that measured 6 setting(s) in common. interface: PCIe (72 runs), SATA (72 runs).');
  await expect(groups.getByTestId('verdict-summary')).toHaveText(/^SATA against PCIe at 6 setting\(s\): SATA higher at 0, lower at 6; /);
  await expect(page.locator('[data-chart="groups"] tbody tr')).toHaveCount(12); // 6 settings x 2 groups, n = 12 each
  await expect(groups.getByTestId('group-bars').locator('tbody tr').first()).toContainText('n = 12 repeats of sweep');
  expect(await undrawnSeries(page)).toEqual([]);
  expect(await elements(page)).toBeLessThan(MOST_ELEMENTS);
  await groups.screenshot({ path: join(SCREENSHOTS, 'models-study-groups.png') });
  await page.locator('.predict-panel').screenshot({ path: join(SCREENSHOTS, 'models-study-predict.png') });

  // a tab switch and a reload: the runs, the forms and the answers are there again
  for (const away of [() => page.getByRole('tab', { name: 'Designer' }).click(), () => page.reload()]) {
    await away();
    await page.getByRole('tab', { name: 'Models' }).click();
    await expect(page.getByRole('searchbox', { name: 'Find runs' })).toHaveValue('study=ceph');
    await expect(page.locator('.predict-panel').getByTestId('split-by')).toHaveText(/^Each interface fitted apart\./);
    await expect(page.getByTestId('scaling-index').locator('tbody tr')).toHaveCount(3);
    await expect(page.getByTestId('series-fit')).toHaveCount(1);
  }
  await page.context().close();
});

test('a bare tag key finds no run: the view says how it read it and offers the tag\'s values', async () => {
  const page = await studyPage();
  await page.getByRole('searchbox', { name: 'Find runs' }).fill('interface');
  await expect(page.getByTestId('model-runs')).toHaveText('no run matches');
  await expect(page.getByTestId('search-read')).toContainText('Understood: “interface” in a target, device model, engine or source.');
  await expect(page.getByTestId('models-empty')).toContainText('No run matches “interface”');
  await page.locator('.run-source').screenshot({ path: join(SCREENSHOTS, 'models-find.png') });
  await page.getByRole('button', { name: 'interface=SATA (72 runs)' }).click();
  await expect(page.getByTestId('model-runs')).toHaveText('72 run(s), every one matching');
  await page.context().close();
});
