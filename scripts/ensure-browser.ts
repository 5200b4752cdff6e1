// Run by `npm test` and `npm run test:e2e` before anything else: the browser tests need a Chromium, and a fresh
// machine may have none. Debian's is used where installed; otherwise Playwright's own, downloaded if missing.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, systemChromium } from './chromium.js';

export interface BrowserProbe {
  /** A system Chromium's path, if one is installed. */
  systemChromium: () => string | undefined;
  /** Launches Playwright's own Chromium once; resolves to the reason it could not start, or undefined. */
  launchFailure: () => Promise<string | undefined>;
  /** `playwright install chromium`; true when it succeeded. */
  install: () => boolean;
  log: (line: string) => void;
}

export const NO_BROWSER_MESSAGE = `The browser tests need Chromium, and none is installed or could be downloaded.
Install one of these, then run the command again:
  - Debian or Ubuntu:  sudo apt-get install chromium      (used from /usr/bin/chromium)
  - anywhere else:     npx playwright install --with-deps chromium   (Playwright's own; needs internet)`;

/** Finds a Chromium for the browser tests or installs Playwright's; throws NO_BROWSER_MESSAGE when neither works. */
export async function ensureBrowser(probe: BrowserProbe): Promise<string> {
  const system = probe.systemChromium();
  if (system) return system;
  const failure = await probe.launchFailure();
  if (failure === undefined) return "Playwright's Chromium";
  probe.log(`No system Chromium and Playwright's own did not start (${firstLine(failure)}).`);
  probe.log("Installing Playwright's Chromium (npx playwright install chromium)…");
  if (probe.install() && (await probe.launchFailure()) === undefined) return "Playwright's Chromium";
  throw new Error(NO_BROWSER_MESSAGE);
}

const firstLine = (text: string) => text.split('\n').find((line) => line.trim() !== '') ?? text;

const playwrightProbe: BrowserProbe = {
  systemChromium: () => systemChromium(),
  async launchFailure() {
    try {
      const browser = await chromium.launch({ args: CHROMIUM_ARGS });
      await browser.close();
      return undefined;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  },
  install() {
    const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
    return spawnSync(process.execPath, [cli, 'install', 'chromium'], { stdio: 'inherit' }).status === 0;
  },
  log: (line) => process.stderr.write(`${line}\n`),
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  ensureBrowser(playwrightProbe).then(
    (browser) => process.stdout.write(`Browser tests run in ${browser}.\n`),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
