import { availableParallelism } from 'node:os';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, systemChromium } from './scripts/chromium.js';

// Debian's Chromium where it is installed (CI, this workplace); Playwright's own browser elsewhere
// (`npm test` runs scripts/ensure-browser.ts first, which installs it when missing).
const executablePath = systemChromium();

export default defineConfig({
  testDir: 'test/e2e',
  outputDir: 'test-results/e2e',
  // Two files side by side share the 2 cores: a test that took 36 s alone took over 60 s beside another at load 27.
  // The bound only decides when a stuck test fails; a passing run is no slower for it.
  timeout: 90_000,
  expect: { timeout: 10_000 },
  // Test files run two at a time even on 2 cores: one at a time, the whole suite (browser, servers and runner)
  // used 9.3 min of CPU in 48 min. The tests of a file run in order in one worker (they share its beforeAll's servers).
  fullyParallel: false,
  workers: Math.max(2, availableParallelism() - 1),
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1440, height: 900 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      ...(executablePath ? { executablePath } : {}),
      args: CHROMIUM_ARGS,
    },
  },
});
