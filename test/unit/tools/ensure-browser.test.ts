import { describe, expect, it } from 'vitest';
import { ensureBrowser, NO_BROWSER_MESSAGE, type BrowserProbe } from '../../../scripts/ensure-browser.js';
import { systemChromium } from '../../../scripts/chromium.js';

/** A machine described by what is on it: a system Chromium or not, Playwright's browser present or installable. */
function machine(state: { system?: string; playwrightBrowser: boolean; installWorks: boolean }) {
  const calls: string[] = [];
  let installed = state.playwrightBrowser;
  const probe: BrowserProbe = {
    systemChromium: () => state.system,
    launchFailure: () => {
      calls.push('launch');
      return Promise.resolve(installed ? undefined : "browserType.launch: Executable doesn't exist at /x");
    },
    install: () => {
      calls.push('install');
      installed = state.installWorks;
      return state.installWorks;
    },
    log: (line) => calls.push(`log: ${line}`),
  };
  return { probe, calls };
}

describe('ensure-browser (the first step of npm test)', () => {
  it("uses Debian's Chromium without launching or downloading anything", async () => {
    const { probe, calls } = machine({
      system: '/usr/bin/chromium',
      playwrightBrowser: false,
      installWorks: false,
    });
    await expect(ensureBrowser(probe)).resolves.toBe('/usr/bin/chromium');
    expect(calls).toEqual([]);
  });

  it("uses Playwright's Chromium when it is already installed", async () => {
    const { probe, calls } = machine({ playwrightBrowser: true, installWorks: false });
    await expect(ensureBrowser(probe)).resolves.toBe("Playwright's Chromium");
    expect(calls).toEqual(['launch']);
  });

  it("installs Playwright's Chromium on a machine that has none, saying so", async () => {
    const { probe, calls } = machine({ playwrightBrowser: false, installWorks: true });
    await expect(ensureBrowser(probe)).resolves.toBe("Playwright's Chromium");
    expect(calls.filter((call) => !call.startsWith('log'))).toEqual(['launch', 'install', 'launch']);
    expect(calls.join('\n')).toContain('npx playwright install chromium');
  });

  it('ends with one clear message when no browser can be found or downloaded (offline)', async () => {
    const { probe } = machine({ playwrightBrowser: false, installWorks: false });
    const failure = ensureBrowser(probe);
    await expect(failure).rejects.toThrow(NO_BROWSER_MESSAGE);
    expect(NO_BROWSER_MESSAGE).toContain('sudo apt-get install chromium');
    expect(NO_BROWSER_MESSAGE).toContain('npx playwright install --with-deps chromium');
  });

  it('finds the Debian and Ubuntu Chromium paths', () => {
    expect(systemChromium((path) => path === '/usr/bin/chromium-browser')).toBe('/usr/bin/chromium-browser');
    expect(systemChromium(() => false)).toBeUndefined();
  });
});
