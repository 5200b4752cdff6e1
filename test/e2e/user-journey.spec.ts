import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { startGatehouse, type StartedGatehouse } from './gatehouse-fixture.js';
import { saveScreenshot } from './support/accessibility.js';
import { generateEntries, IMPORTED_USERS, writeNdjson } from './support/audit-entries.js';
import { auditGrid, chooseAction, paginationLabel } from './support/audit-log.js';
import { openScreen, signInWithLink } from './support/console.js';
import { startEchoUpstream, type EchoUpstream } from './support/echo-upstream.js';
import { addHeaderEntry, expectPreview, preview, section } from './support/passthrough-editor.js';

/**
 * A new user's first session, from the UI alone: sign in, import an API, give it a backend through an environment
 * variable, expose it as a Passthrough API with CORS for one web app, call it from browser pages of two origins,
 * find the calls in API monitoring, change the backend, turn the audit log on, and read the whole story in it.
 * The tenant comes with a history (entries imported from the platform before `serve`), so the audit log has pages.
 */

const ORDERS_YAML = fileURLToPath(
  new URL('../../resources/samples/orders-api.openapi.yaml', import.meta.url),
);
const API_KEY = 'journey-Secret-2718';
/** Older entries of the tenant; with the journey's own, more than one page of 30. */
const HISTORY = 40;

interface Echo {
  method: string;
  url: string;
  headers: Record<string, string | undefined>;
}
type CallResult = { ok: true; status: number; echo: Echo } | { ok: false; error: string };

/** A tiny web app on its own origin: one page, from which the test calls the gateway with `fetch`. */
interface WebApp {
  origin: string;
  close: () => Promise<void>;
}

async function startWebApp(host: '127.0.0.1' | 'localhost', title: string): Promise<WebApp> {
  const server: Server = createServer((request, response) => {
    request.resume();
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html lang="en"><title>${title}</title><h1>${title}</h1></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

let gatehouse: StartedGatehouse;
let upstream: EchoUpstream;
let allowedApp: WebApp;
let otherApp: WebApp;
let importDir: string;

test.beforeAll(async () => {
  importDir = await mkdtemp(join(tmpdir(), 'gatehouse-journey-'));
  const history = await writeNdjson(
    importDir,
    'platform-export.ndjson',
    generateEntries(HISTORY, new Date(Date.now() - 3_600_000)),
  );
  [gatehouse, upstream, allowedApp, otherApp] = await Promise.all([
    startGatehouse({ auditImports: [history] }),
    startEchoUpstream(),
    startWebApp('127.0.0.1', 'Orders web app'),
    startWebApp('localhost', 'Some other site'),
  ]);
  // Three different origins: the gateway, the allowed app (another port), the other site (another host).
  const origins = new Set([new URL(gatehouse.gatewayUrl).origin, allowedApp.origin, otherApp.origin]);
  expect(origins.size).toBe(3);
});
test.afterAll(async () => {
  await Promise.all([gatehouse.stop(), upstream.close(), allowedApp.close(), otherApp.close()]);
  await rm(importDir, { recursive: true, force: true });
});

/** `fetch` from the page's own origin, with a non-simple header so the browser sends a preflight first. */
function callOrders(page: Page): Promise<CallResult> {
  return page.evaluate(async (gatewayUrl) => {
    try {
      const response = await fetch(`${gatewayUrl}/orders-api/v1/orders?status=open`, {
        headers: { 'X-Trace-Test': '1', 'X-Api-Key': 'typed-by-the-browser', 'X-Drop-Me': 'yes' },
      });
      return { ok: true, status: response.status, echo: (await response.json()) as Echo } as const;
    } catch (error) {
      return { ok: false, error: `${(error as Error).name}: ${(error as Error).message}` } as const;
    }
  }, gatehouse.gatewayUrl);
}

/** Makes an edit in the editor and waits for the preview to show a target URL other than before. */
async function editChangingPreview(page: Page, edit: () => Promise<void>): Promise<void> {
  await expectPreview(page, 'ready');
  const before = await page.getByTestId('target-url-text').textContent();
  await edit();
  await expectPreview(page, 'ready');
  await expect(page.getByTestId('target-url-text')).not.toHaveText(before ?? '');
}

async function chooseOption(page: Page, field: string, option: string): Promise<void> {
  await page.getByRole('combobox', { name: field }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('a new user: import, variables, a Passthrough API with CORS, monitoring, the audit flag, the audit log', async ({
  page,
  context,
}) => {
  // About 50 s on an idle machine; the margin is for a busy one.
  test.setTimeout(120_000);
  let userName = '';

  await test.step('sign in with the one-time link', async () => {
    await signInWithLink(page, gatehouse);
    userName = (await page.getByTestId('signed-in-user').textContent())?.trim() ?? '';
    expect(userName).not.toBe('');
    await expect(page.getByRole('heading', { level: 1, name: 'APIs' })).toBeVisible();
  });

  await test.step('import the Orders API through the file picker', async () => {
    await page
      .getByTestId('apis-empty-state')
      .getByRole('button', { name: 'Import an OpenAPI document' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Import an API' });
    const chooser = page.waitForEvent('filechooser');
    await dialog.getByRole('button', { name: 'Choose file' }).click();
    await (await chooser).setFiles(ORDERS_YAML);
    await expect(dialog.getByTestId('chosen-document')).toContainText('orders-api.openapi.yaml');
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('API “Orders API” imported')).toBeVisible();
    const row = page.locator('[data-api-name="Orders API"]');
    await expect(row).toContainText('/orders-api/v1');
    await expect(row.getByTestId('passthrough-status')).toHaveText('None');
    await saveScreenshot(page, 'journey-1-api-imported');
  });

  await test.step('create the variable `orders` with its Development values', async () => {
    await openScreen(page, 'Environment variables');
    await page.getByRole('button', { name: 'New variable' }).click();
    const form = page.getByRole('dialog', { name: 'New environment variable' });
    await form.getByRole('textbox', { name: 'Variable name' }).fill('orders');
    await form.getByRole('textbox', { name: 'Member 1 name' }).fill('url');
    await form.getByRole('button', { name: 'Add member' }).click();
    await form.getByRole('textbox', { name: 'Member 2 name' }).fill('apiKey');
    await form.getByRole('combobox', { name: 'Member 2 type' }).click();
    await page.getByRole('option', { name: 'Secret' }).click();
    await form.getByRole('button', { name: 'Create' }).click();
    await expect(form).toBeHidden();

    const values = page.getByRole('dialog', { name: 'Values of orders' });
    await expect(values.getByRole('combobox', { name: 'Environment' })).toHaveText('Development');
    await values.getByRole('textbox', { name: 'url' }).fill(upstream.url);
    await values.getByLabel('apiKey', { exact: true }).fill(API_KEY);
    await values.getByRole('button', { name: 'Save values' }).click();
    await expect(page.getByText('Values of “orders” saved for Development')).toBeVisible();
    const row = page.locator('[data-variable-name="orders"]');
    await expect(row.locator('[data-member="url"]')).toHaveText(upstream.url);
    await expect(row.locator('[data-member="apiKey"]')).toHaveText('********');
    expect(await page.content()).not.toContain(API_KEY);
  });

  await test.step('create the Passthrough API: references, live preview, headers, CORS, a public policy', async () => {
    await openScreen(page, 'APIs');
    await page.getByRole('link', { name: 'Create Passthrough API for Orders API' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Create Passthrough API' })).toBeVisible();

    // Section 1 from the reference list that `{{#` opens.
    await section(page, 1).click();
    await page.keyboard.type('{{#env.or');
    const references = page.getByRole('listbox', { name: 'References for Target URL section 1' });
    await expect(references.getByRole('option', { name: /#env\.orders\.apiKey/ })).toBeVisible();
    await references.getByRole('option', { name: /#env\.orders\.url/ }).click();
    await expect(section(page, 1)).toHaveValue('{{#env.orders.url}}');
    await expectPreview(page, 'ready', upstream.url);

    // The preview follows the typing: each edit shows a new target URL.
    await editChangingPreview(page, async () => {
      await section(page, 2).click();
      await page.keyboard.type('backend');
    });
    await expect(preview(page)).toContainText(`${upstream.url}/backend`);

    await editChangingPreview(page, async () => {
      await section(page, 3).click();
      await page.keyboard.type('{{#api.Op');
      await page.getByRole('option', { name: /^#api\.OperationPath\s/ }).click();
    });
    await expect(section(page, 3)).toHaveValue('{{#api.OperationPath}}');
    await expect(preview(page)).toContainText(`${upstream.url}/backend/`);

    await editChangingPreview(page, async () => {
      await section(page, 4).click();
      await page.keyboard.type('#api.Query');
      await page.getByRole('option', { name: /^#api\.QueryParameters\s*The full query/ }).click();
      await page.keyboard.type('&key={{#env.orders.api');
      await page.getByRole('option', { name: /#env\.orders\.apiKey/ }).click();
    });
    await expect(section(page, 4)).toHaveValue('{{#api.QueryParameters}}&key={{#env.orders.apiKey}}');
    // The secret is masked in the preview.
    await expect(page.getByTestId('target-url-text')).toHaveText(/key=\*{8}$/);

    await addHeaderEntry(page, 1, 'Overwrite', 'X-Api-Key', '{{#env.orders.apiKey}}');
    await addHeaderEntry(page, 2, 'Add', 'X-Journey', 'new-user');
    await addHeaderEntry(page, 3, 'Remove', 'X-Drop-Me');
    await expectPreview(page, 'ready');

    await page.getByLabel('Enable CORS for browser clients of the exposed endpoint').check();
    const origins = page.getByRole('combobox', { name: 'Allowed origins' });
    await origins.fill(allowedApp.origin);
    await origins.press('Enter');
    await expect(page.getByRole('button', { name: allowedApp.origin })).toBeVisible();

    await expect(page.getByLabel('Add an access policy (created with the configuration)')).toBeChecked();
    await page.getByLabel('Public (everyone)').check();
    expect(await page.content()).not.toContain(API_KEY);
    await saveScreenshot(page, 'journey-2-passthrough-editor');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Passthrough API created and deployed')).toBeVisible();
    await expect(page.getByTestId('save-status')).toHaveText('All changes are saved and deployed.');
  });

  const visitor = await context.newPage();
  await test.step('real CORS: the allowed web app gets the echo, another site is blocked', async () => {
    await visitor.goto(`${allowedApp.origin}/`);
    await expect(visitor.getByRole('heading', { name: 'Orders web app' })).toBeVisible();
    const allowed = await callOrders(visitor);
    expect(allowed).toMatchObject({ ok: true, status: 200 });
    const echo = (allowed as Extract<CallResult, { ok: true }>).echo;
    expect(echo.method).toBe('GET');
    expect(echo.url).toBe(`/backend/orders?status=open&key=${API_KEY}`);
    expect(echo.headers['x-api-key']).toBe(API_KEY);
    expect(echo.headers['x-journey']).toBe('new-user');
    expect(echo.headers['x-trace-test']).toBe('1');
    expect(echo.headers['x-drop-me']).toBeUndefined();

    const forwardedBefore = upstream.received.length;
    await visitor.goto(`${otherApp.origin}/`);
    await expect(visitor.getByRole('heading', { name: 'Some other site' })).toBeVisible();
    const blocked = await callOrders(visitor);
    expect(blocked).toEqual({ ok: false, error: expect.stringMatching(/^TypeError: /) as unknown });
    // The preflight was refused: the request itself never reached the backend.
    expect(upstream.received.length).toBe(forwardedBefore);
  });

  await test.step('find the call in API monitoring, its target URL with the secret masked', async () => {
    await openScreen(page, 'API monitoring');
    await page.getByRole('textbox', { name: 'Path prefix' }).fill('/orders-api/v1/orders');
    await chooseOption(page, 'Method', 'GET');
    // Monitoring stores records in batches: refresh until the call is listed.
    const grid = page.getByRole('grid', { name: 'Monitored requests' });
    const call = grid.getByRole('gridcell', { name: '/orders-api/v1/orders' });
    await expect(async () => {
      await page.getByRole('button', { name: 'Refresh', exact: true }).click();
      await expect(call).toHaveCount(1, { timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
    await expect(paginationLabel(page)).toHaveText('1–1 of 1');
    await call.click();
    const drawer = page.getByRole('dialog', { name: 'GET /orders-api/v1/orders' });
    await expect(drawer.getByTestId('record-outcome')).toHaveText('forwarded');
    await expect(drawer.getByTestId('record-target-url')).toContainText(
      `${upstream.url}/backend/orders?status=open&key=********`,
    );
    await expect(drawer.getByTestId('monitoring-record-fields')).toContainText('Orders API');
    expect(await page.content()).not.toContain(API_KEY);
    await saveScreenshot(page, 'journey-3-monitoring');
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
  });

  await test.step('change the backend URL; the next call goes there', async () => {
    await openScreen(page, 'Environment variables');
    const row = page.locator('[data-variable-name="orders"]');
    await row.getByRole('button', { name: 'Edit the values of orders' }).click();
    const values = page.getByRole('dialog', { name: 'Values of orders' });
    await expect(values.getByLabel('apiKey', { exact: true })).toHaveValue('********');
    await values.getByRole('textbox', { name: 'url' }).fill(`${upstream.url}/v2`);
    await values.getByRole('button', { name: 'Save values' }).click();
    await expect(values).toBeHidden();
    await expect(row.locator('[data-member="url"]')).toHaveText(`${upstream.url}/v2`);

    await visitor.goto(`${allowedApp.origin}/`);
    await expect
      .poll(async () => {
        const result = await callOrders(visitor);
        return result.ok ? result.echo.url : result.error;
      })
      .toBe(`/v2/backend/orders?status=open&key=${API_KEY}`);
    await visitor.close();
  });

  await test.step('turn the audit log endpoint on and restart the Control Panel', async () => {
    await openScreen(page, 'Tenant settings');
    const state = page.getByTestId('audit-flag-state');
    await expect(state).toHaveText('Off');
    await page.getByRole('switch', { name: 'Enable the audit log endpoint' }).click();
    await expect(state).toHaveText('On after restart');
    await expect(
      page.getByText(/Some settings changed since the Control Panel of this instance \(.+\) started\./),
    ).toBeVisible();
    await page.getByRole('button', { name: 'Restart Control Panel' }).click();
    await expect(state).toHaveText('On', { timeout: 30_000 });
    await expect(page.getByText('The Control Panel restarted')).toBeVisible();
  });

  await test.step('the audit log tells the story: paged, filtered by user and action', async () => {
    await openScreen(page, 'Audit log');
    const grid = auditGrid(page);
    await expect(grid.getByRole('gridcell', { name: 'ControlPanel.Restart' })).toBeVisible();
    await saveScreenshot(page, 'journey-4-audit-log');

    // Newest first: the journey on page 1, the tenant's older history after it.
    await expect(paginationLabel(page)).toHaveText(/^1–30 of \d+$/);
    const total = Number(/of (\d+)/.exec((await paginationLabel(page).textContent()) ?? '')?.[1]);
    expect(total).toBeGreaterThan(HISTORY);
    await page.getByRole('button', { name: 'Go to next page' }).click();
    await expect(page).toHaveURL(/PageNumber=2/);
    await expect(paginationLabel(page)).toHaveText(`31–${Math.min(60, total)} of ${total}`);
    await expect(grid.getByRole('gridcell', { name: IMPORTED_USERS[0] }).first()).toBeVisible();
    await expect(grid.getByRole('gridcell', { name: 'ControlPanel.Restart' })).toHaveCount(0);

    // The user's own changes, and nothing else of theirs; a new filter starts again at page 1.
    const user = page.getByRole('textbox', { name: 'User' });
    await user.fill(userName);
    await expect(page).toHaveURL(/userName=/);
    expect(page.url()).not.toContain('PageNumber');
    const expected: [string, number][] = [
      ['Session.SignIn', 1],
      ['Apis.Import', 1],
      ['EnvironmentVariables.Create', 1],
      ['EnvironmentVariables.Modify', 2],
      ['Passthroughs.Create', 1],
      ['TenantSettings.Modify', 1],
      ['ControlPanel.Restart', 1],
    ];
    const mine = expected.reduce((sum, [, count]) => sum + count, 0);
    await expect(paginationLabel(page)).toHaveText(`1–${mine} of ${mine}`);
    await saveScreenshot(page, 'journey-5-audit-log-mine');

    for (const [action, count] of expected) {
      await chooseAction(page, action.slice(0, -2), action);
      await expect(page).toHaveURL(new RegExp(`actionName=${action.replace('.', '\\.')}`));
      await expect(paginationLabel(page)).toHaveText(`1–${count} of ${count}`);
      await expect(grid.getByRole('gridcell', { name: action })).toHaveCount(count);
    }
    // Without the user filter, the history's changes of the same action are there too.
    await chooseAction(page, 'EnvironmentVariables.Mod', 'EnvironmentVariables.Modify');
    await user.fill('');
    await expect(paginationLabel(page)).not.toHaveText('1–2 of 2');
    await user.fill(userName);
    await expect(paginationLabel(page)).toHaveText('1–2 of 2');

    // The passthrough and its access policy were one change.
    await chooseAction(page, 'Passthroughs.Cre', 'Passthroughs.Create');
    await grid.getByRole('gridcell', { name: 'Passthroughs.Create' }).click();
    const details = page.getByRole('dialog', { name: 'Passthroughs.Create' });
    const policy = details.getByRole('listitem').filter({ hasText: 'Orders API passthrough' });
    await expect(policy).toContainText('Policy ·');
    await expect(details.getByRole('listitem').filter({ hasText: 'Passthrough ·' })).toContainText(
      'Orders API',
    );
    await expect(details.getByTestId('audit-entry-parameters')).not.toContainText(API_KEY);
    await page.keyboard.press('Escape');
    await expect(details).toBeHidden();
  });
});
