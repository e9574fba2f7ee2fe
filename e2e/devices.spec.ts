// A lab engineer measures a whole device: a real loop device with direct I/O over a file on the disk
// is picked in the designer (over all of it), a write asks for confirmation in a dialog naming the
// device, its model and size; Cancel writes nothing, Overwrite runs fio on it. The loop device is
// detached afterwards whatever happens. Without root or losetup it skips, or fails under CI=true.
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCREENSHOTS, expect, test } from './fixtures';

const DEVICE_BYTES = 32 << 20;

function loopUnavailable(): string | null {
  if (process.getuid?.() !== 0) return 'a loop device needs root';
  try {
    execFileSync('losetup', ['--version'], { stdio: 'ignore' });
  } catch {
    return 'a loop device needs losetup (util-linux)';
  }
  return null;
}

const digest = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

test('pick a loop device, see the overwrite confirmation naming it, cancel, then confirm and measure', async ({ app: page }) => {
  const missing = loopUnavailable();
  if (missing && process.env.CI === 'true') throw new Error(`${missing} (CI=true: the real part must be here)`);
  test.skip(missing !== null, missing ?? '');
  const dir = mkdtempSync(join('/var/tmp', 'ssdprof-e2e-device-'));
  const backing = join(dir, 'device.img');
  writeFileSync(backing, randomBytes(DEVICE_BYTES));
  const device = execFileSync('losetup', ['--direct-io=on', '--find', '--show', backing], { encoding: 'utf8' }).trim();
  try {
    await page.reload(); // the designer lists the devices there are now
    const before = digest(backing);
    await page.getByLabel('Block device').selectOption(device);
    await expect(page.getByLabel('Target', { exact: true })).toHaveValue(device);
    await expect(page.getByLabel('Test size')).toHaveValue('32m'); // the whole device
    await expect(page.locator('#help-device')).toContainText(backing);
    await page.getByLabel('Pattern').selectOption('randwrite');
    await page.getByLabel('Runtime').fill('1s');
    await page.getByLabel('Ramp (warm-up)').fill('0');
    await expect(page.getByTestId('device-region')).toContainText(`OVERWRITES 32MiB (${DEVICE_BYTES} bytes) from offset 0`);

    await page.getByRole('button', { name: 'Start' }).click();
    const dialog = page.getByRole('alertdialog');
    await expect(dialog.getByRole('heading')).toHaveText(`Overwrite ${device}?`);
    await expect(page.getByTestId('overwrite-device')).toContainText(`${device} (loop device over ${backing}`);
    await expect(page.getByTestId('overwrite-model')).not.toBeEmpty();
    await expect(page.getByTestId('overwrite-size')).toHaveText(`${DEVICE_BYTES} bytes`);
    await page.screenshot({ path: join(SCREENSHOTS, 'device-overwrite.png') });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toHaveCount(0);
    expect(digest(backing)).toBe(before); // nothing written

    await page.getByRole('button', { name: 'Start' }).click();
    await page.getByRole('button', { name: `Overwrite ${device}` }).click();
    await expect(page.getByRole('heading', { name: /Live run/ })).toBeVisible();
    await expect(page.locator('.badge.done')).toBeVisible({ timeout: 60_000 });
    expect(digest(backing)).not.toBe(before); // fio wrote to the device, as confirmed
  } finally {
    execFileSync('losetup', ['--detach', device]);
    rmSync(dir, { recursive: true, force: true });
  }
});
