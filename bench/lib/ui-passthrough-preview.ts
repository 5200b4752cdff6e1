/**
 * Part 3 of bench/ui.ts: the target URL preview of the Passthrough editor (`/apis/<apiId>/passthrough`). The API,
 * an environment variable and a passthrough are set up through the management API; each sample selects the text
 * of target URL section 3 and types a new value in a burst (40 ms between keys), and the probe times the last
 * keystroke to the preview showing a URL with that value.
 *
 * The editor's contract: inputs labelled "Target URL section 1" … "Target URL section 4"; an element with
 * data-testid="target-url-preview" whose data-preview-state is `pending` while debouncing or in flight and `ready`
 * or `error` once it shows the result for the inputs, with the URL text inside it.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from '@playwright/test';
import type { UiSample } from './ui-page-probes.js';
import { signedInContext, timeChange } from './ui-session.js';

export type PreviewResult = { skipped: string } | { samples: UiSample[]; apiId: string };

const ENVIRONMENT = 'development';
const TYPING_DELAY_MS = 40;

async function call(baseUrl: string, token: string, method: string, path: string, body?: unknown) {
  const raw = typeof body === 'string';
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'Content-Type': raw ? 'application/yaml' : 'application/json' }),
    },
    body: body === undefined ? undefined : raw ? body : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 500)}`);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

/** Imports the sample Orders API and gives it a passthrough whose target uses an environment variable. */
export async function setUpPassthrough(root: string, baseUrl: string, token: string): Promise<string> {
  const document = await readFile(join(root, 'resources/samples/orders-api.openapi.yaml'), 'utf8');
  const imported = await call(baseUrl, token, 'POST', '/api/v1/apis', document);
  const apiId = (imported.api as { id: string }).id;
  const variable = await call(baseUrl, token, 'POST', '/api/v1/environment-variables', {
    kind: 'value',
    name: 'ordersHost',
    type: 'string',
  });
  await call(
    baseUrl,
    token,
    'PUT',
    `/api/v1/environment-variables/${String(variable.id)}/values/${ENVIRONMENT}`,
    {
      value: 'https://orders.internal.example',
    },
  );
  await call(baseUrl, token, 'POST', `/api/v1/apis/${apiId}/passthrough`, {
    allOperations: {
      target: { section1: '{{#env.ordersHost}}', section2: 'orders-api/v1', section3: 'orders' },
    },
  });
  return apiId;
}

export async function measurePreview(
  browser: Browser,
  options: { root: string; baseUrl: string; token: string; samples: number; warmup: number },
): Promise<PreviewResult> {
  const apiId = await setUpPassthrough(options.root, options.baseUrl, options.token);
  const context = await signedInContext(browser, options.token);
  try {
    const page = await context.newPage();
    const path = `/apis/${apiId}/passthrough`;
    // In-app navigation from /apis: a deep link two levels down may not load the bundle (relative asset URLs).
    await page.goto(`${options.baseUrl}/apis`);
    await page.locator('main h1').first().waitFor({ timeout: 15_000 });
    await page.evaluate((to) => {
      window.history.pushState(null, '', to);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, path);
    const section3 = page.getByLabel('Target URL section 3', { exact: true }).first();
    const preview = page.getByTestId('target-url-preview').first();
    try {
      await section3.waitFor({ timeout: 15_000 });
      await preview.waitFor({ timeout: 5_000 });
      await page
        .locator(
          '[data-testid="target-url-preview"]:is([data-preview-state="ready"], [data-preview-state="error"])',
        )
        .first()
        .waitFor({ timeout: 10_000 });
    } catch {
      return {
        skipped: `${path} does not render the editor's contract (a "Target URL section 3" input and a target-url-preview with data-preview-state ready) within 15 s`,
      };
    }
    const samples: UiSample[] = [];
    for (let i = 0; i < options.warmup + options.samples; i++) {
      const marker = `b${i}q`;
      const sample = await timeChange(page, { kind: 'preview', marker }, async () => {
        await section3.click();
        await page.keyboard.press('ControlOrMeta+A');
        await page.keyboard.type(marker, { delay: TYPING_DELAY_MS });
      });
      if (i >= options.warmup) samples.push(sample);
    }
    return { samples, apiId };
  } finally {
    await context.close();
  }
}
