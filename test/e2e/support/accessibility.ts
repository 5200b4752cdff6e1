import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Page } from '@playwright/test';
import type { AxeResults, RunOptions } from 'axe-core';

/** The axe-core that @axe-core/playwright itself runs (its dependency, whichever copy npm placed for it). */
const AXE_SOURCE = readFileSync(
  createRequire(createRequire(import.meta.url).resolve('@axe-core/playwright')).resolve(
    'axe-core/axe.min.js',
  ),
  'utf8',
);

const AXE_OPTIONS: RunOptions = {
  runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
  // Every violation in full; passes and the rest summarised (their nodes are never read here).
  resultTypes: ['violations'],
};

/**
 * axe.run in the page, axe-core injected once per document. AxeBuilder.analyze() injects it on every call and then
 * finishes the run in a new blank page, where it injects it again: twice the time per check, for frames (of other
 * origins) the console has none of.
 */
async function runAxe(page: Page): Promise<AxeResults> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(
    (options) =>
      (
        window as unknown as { axe: { run: (context: Document, options: RunOptions) => Promise<AxeResults> } }
      ).axe.run(document, options),
    AXE_OPTIONS,
  );
}

const SCREENSHOT_DIR = fileURLToPath(new URL('../../../test-results/screenshots', import.meta.url));

/**
 * axe-core on the page once its transitions have ended: no serious or critical WCAG 2.1 A/AA violation. (A colour
 * measured mid-fade, e.g. a button still fading in after a navigation, is no property of the page.)
 */
export async function expectNoSeriousViolations(page: Page, what: string): Promise<void> {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      // Progress indicators spin for good; only transitions that end are waited for.
      .every(
        (animation) =>
          animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity,
      ),
  );
  const results = await runAxe(page);
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes
          .slice(0, 5)
          .map((node) => node.target.join(' '))
          .join(' | ')}`,
    );
  expect(serious, `accessibility of ${what}`).toEqual([]);
}

/** Saved to test-results/screenshots/ (git-ignored) for review. */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  // The top bar is fixed: from the top, a full-page capture shows it where it belongs.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}
