import { defineConfig } from '@playwright/test';

// The e2e specs drive the real engine and real fio, so they run one at a time (2 cores).
// SSDPROF_E2E_MODE=browser (default) serves the app with `ssdprof serve` and drives Debian's
// Chromium; SSDPROF_E2E_MODE=electron launches the desktop app through Playwright's Electron support.
export default defineConfig({
  testDir: 'e2e',
  timeout: 120_000,
  expect: { timeout: 15_000 },
  workers: 1,
  fullyParallel: false,
  retries: 0,
  reporter: [['list']],
  outputDir: 'test-results',
  use: { viewport: { width: 1360, height: 900 } },
});
