// Browser mode against two SSH test hosts (network namespaces with their own sshd, made by engine/tests/infra
// through e2e/hosts_server.py), for the specs that run on hosts; and adding a host with its key's fingerprint
// accepted by hand. Skipped, with the reason, where the test hosts cannot be made (they need root and ip netns);
// under CI=true that fails with the reason instead.
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test as base, type Page } from '@playwright/test';
import { ROOT, Unavailable, expect, startBrowserMode, type Running } from './fixtures';

export const hostsTest = base.extend<{ hostsApp: { page: Page; dir: string } }>({
  // Playwright reads a fixture's dependencies from its first parameter, which must be a pattern.
  // eslint-disable-next-line no-empty-pattern
  hostsApp: async ({}, use, testInfo) => {
    hostsTest.skip(process.env.SSDPROF_E2E_MODE === 'electron', 'the test hosts are reached from browser mode');
    const dir = mkdtempSync(join('/var/tmp', 'ssdprof-e2e-hosts-'));
    let running: Running;
    try {
      running = await startBrowserMode(dir, [join(ROOT, 'e2e', 'hosts_server.py'), join(dir, 'results.sqlite3'), join(dir, 'known_hosts')]);
    } catch (error) {
      rmSync(dir, { recursive: true, force: true });
      // Under CI=true a missing real part fails with its reason; elsewhere the spec is skipped with it.
      if (error instanceof Unavailable && process.env.CI !== 'true') testInfo.skip(true, `SSH test hosts unavailable here: ${error.message}`);
      throw error;
    }
    const page = await running.open();
    try {
      await use({ page, dir });
    } finally {
      await page.context().close();
      await running.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
});

export async function addHost(page: Page, name: string): Promise<void> {
  await page.getByLabel('Host', { exact: true }).fill(name);
  await page.getByRole('button', { name: 'Add host' }).click();
  const fingerprint = page.getByTestId('fingerprint');
  await expect(fingerprint).toHaveText(/^SHA256:/);
  await expect(page.getByTestId('hosts-table').locator(`tr[data-host="${name}"]`)).toHaveCount(0); // nothing added yet
  await page.getByRole('button', { name: /^Accept .* key and add$/ }).click();
  await expect(page.getByTestId('hosts-table').locator(`tr[data-host="${name}"] [data-testid="probe"]`)).toContainText('fio-3');
}
