/**
 * Node-side helpers of bench/ui.ts: Chromium through the Playwright library, contexts that are already signed in
 * (the console resumes a session from sessionStorage, as after a reload) and carry the in-page probes.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { installUiProbes, type ProbeTarget, type UiProbes, type UiSample } from './ui-page-probes.js';

const SYSTEM_CHROMIUM = '/usr/bin/chromium';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    headless: true,
    ...(existsSync(SYSTEM_CHROMIUM) ? { executablePath: SYSTEM_CHROMIUM } : {}),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/** A fresh context (its own empty HTTP cache) whose pages start signed in with `token`. */
export async function signedInContext(browser: Browser, token: string): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  // The script runner keeps function names with a helper the page does not have; give the page a no-op one.
  await context.addInitScript('globalThis.__name ??= (fn) => fn;');
  await context.addInitScript((accessToken: string) => {
    if (location.protocol.startsWith('http'))
      sessionStorage.setItem('gatehouse.session', JSON.stringify({ accessToken, origin: 'pasted-token' }));
  }, token);
  await context.addInitScript(installUiProbes);
  return context;
}

/** Arms the probe, runs the interaction, and returns the probe's timing of the change it caused. */
export async function timeChange(
  page: Page,
  target: ProbeTarget,
  interact: () => Promise<void>,
  timeoutMs = 10_000,
): Promise<UiSample> {
  await page.evaluate(
    ([probeTarget, timeout]) =>
      (window as unknown as { __uiBench: UiProbes }).__uiBench.arm(probeTarget, timeout),
    [target, timeoutMs] as const,
  );
  await interact();
  return page.evaluate(() => (window as unknown as { __uiBench: UiProbes }).__uiBench.result());
}
