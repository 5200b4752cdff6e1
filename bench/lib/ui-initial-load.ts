/**
 * Part 2 of bench/ui.ts: opening the console at `/` (the default screen) with a session to resume, from the
 * navigation start to the shell and the first screen rendered (its h1 and the main navigation in the DOM, no
 * progress bar in the main area) and the main thread free to take input.
 *
 * Cold: every sample in a new browser context (empty HTTP cache). Warm: one context, loaded once untimed, then
 * each sample in a new tab of it (the hashed assets come from the cache, index.html is revalidated).
 */
import type { Browser, BrowserContext } from '@playwright/test';
import type { LoadSample, UiProbes } from './ui-page-probes.js';
import { signedInContext } from './ui-session.js';

export interface LoadResult {
  cold: LoadSample[];
  warm: LoadSample[];
}

async function loadOnce(context: BrowserContext, url: string): Promise<LoadSample> {
  const page = await context.newPage();
  try {
    await page.goto(url, { waitUntil: 'commit' });
    return await page.evaluate(() => (window as unknown as { __uiBench: UiProbes }).__uiBench.load);
  } finally {
    await page.close();
  }
}

export async function measureInitialLoad(
  browser: Browser,
  options: { baseUrl: string; token: string; samples: number },
): Promise<LoadResult> {
  const url = `${options.baseUrl}/`;
  const cold: LoadSample[] = [];
  // One untimed load first, so the server's own first-request costs do not count as the browser's cold cache.
  for (let i = -1; i < options.samples; i++) {
    const context = await signedInContext(browser, options.token);
    try {
      const sample = await loadOnce(context, url);
      if (i >= 0) cold.push(sample);
    } finally {
      await context.close();
    }
  }
  const warm: LoadSample[] = [];
  const context = await signedInContext(browser, options.token);
  try {
    for (let i = -1; i < options.samples; i++) {
      const sample = await loadOnce(context, url);
      if (i >= 0) warm.push(sample);
    }
  } finally {
    await context.close();
  }
  return { cold, warm };
}
