import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

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
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
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
