import { expect, test, type Page } from '@playwright/test';
import { startGatehouse, type StartedGatehouse } from './gatehouse-fixture.js';
import { saveScreenshot } from './support/accessibility.js';
import { navigation, signInWithToken } from './support/console.js';
import { managementApi, type ManagementApi } from './support/management-api.js';
import {
  addHeaderEntry,
  bulkApiDocument,
  expectPreview,
  headerRow,
  operationList,
  operationOption,
  recordPreviewStates,
  section,
} from './support/passthrough-editor.js';

const BACKEND = 'https://backend.example.com';
const ORDER_BY_ID = 'GET /orders/{orderId}';

interface SavedEntry {
  target: Record<string, string>;
  headers: { action: string; name: string; value?: string }[];
  cors: { enabled: boolean; allowedOrigins: string[]; exposeHeaders: string[] };
  allowWebSocket: boolean;
}
interface SavedPassthrough {
  allOperations?: SavedEntry;
  operations: Record<string, SavedEntry>;
}

let gatehouse: StartedGatehouse;
let api: ManagementApi;
let ordersId: string;

test.beforeAll(async () => {
  gatehouse = await startGatehouse();
  api = await managementApi(gatehouse);
  const backend = await api.call<{ id: string }>('POST', '/api/v1/environment-variables', {
    kind: 'group',
    name: 'backend',
    members: [
      { name: 'url', type: 'string' },
      { name: 'token', type: 'secret' },
    ],
  });
  await api.call('PUT', `/api/v1/environment-variables/${backend.id}/values/development`, {
    members: { url: BACKEND, token: 'editor-secret-token' },
  });
  // Referenced by nothing that is saved: a value is missing in Development.
  await api.call('POST', '/api/v1/environment-variables', { kind: 'value', name: 'unset', type: 'string' });
  ordersId = (await api.importOrdersApi()).id;
});
test.afterAll(async () => {
  await gatehouse.stop();
});

async function openEditor(page: Page, apiId: string, user: string): Promise<void> {
  await signInWithToken(page, gatehouse, 'Operator', user, `/apis/${apiId}/passthrough`);
  await expect(section(page, 1)).toBeVisible();
}

async function givenNoPassthrough(): Promise<void> {
  await api.call('DELETE', `/api/v1/apis/${ordersId}/passthrough`).catch((error: unknown) => {
    if (!(error instanceof Error) || !error.message.includes('answered 404')) throw error;
  });
}

/** Tests that modify start from the same saved configuration, whatever ran before. */
async function givenSavedPassthrough(): Promise<void> {
  await givenNoPassthrough();
  await api.call('POST', `/api/v1/apis/${ordersId}/passthrough`, {
    allOperations: {
      target: {
        section1: '{{#env.backend.url}}',
        section2: 'orders/v2',
        section3: 'items',
        section4: 'q={{#api.QueryParameters}}',
      },
    },
  });
}

function saved(): Promise<SavedPassthrough> {
  return api.call<SavedPassthrough>('GET', `/api/v1/apis/${ordersId}/passthrough`);
}

test('references from the list, a live preview as one types, errors marked at their position', async ({
  page,
}) => {
  await givenNoPassthrough();
  await openEditor(page, ordersId, 'editor-references');
  await expect(page.getByRole('heading', { level: 1, name: 'Create Passthrough API' })).toBeVisible();
  await expect(operationOption(page, 'allOperations')).toHaveAttribute('aria-selected', 'true');

  // `{{#` offers the references; the keyboard picks one and the braces are closed.
  await section(page, 1).click();
  await page.keyboard.type('{{#en');
  const references = page.getByRole('listbox', { name: 'References for Target URL section 1' });
  await expect(references.getByRole('option', { name: /#env\.backend\.url/ })).toBeVisible();
  await expect(references.getByRole('option', { name: /#api\./ })).toHaveCount(0);
  await saveScreenshot(page, 'passthrough-editor-references');
  await page.keyboard.press('Enter');
  await expect(section(page, 1)).toHaveValue('{{#env.backend.url}}');
  await expect(references).toBeHidden();
  await expectPreview(page, 'ready', `${BACKEND}/`);

  // The preview follows the typing: pending while debouncing, then the new URL.
  const states = await recordPreviewStates(page);
  await section(page, 2).click();
  await page.keyboard.type('orders/v2');
  await expectPreview(page, 'ready', `${BACKEND}/orders/v2`);
  expect(await states()).toContain('pending');

  // `#api.` typed outside braces is completed with them.
  await section(page, 4).click();
  await page.keyboard.type('q=#api.Query');
  await page.getByRole('option', { name: /^#api\.QueryParameters\s*The full query/ }).click();
  await expect(section(page, 4)).toHaveValue('q={{#api.QueryParameters}}');

  // An invalid expression: the error is marked at its character, under the section.
  await section(page, 3).fill('{{#api.QueryParameters.id + }}');
  await expectPreview(page, 'error', 'Target URL section 3, character 29');
  const marker = page.getByTestId('template-error');
  await expect(marker).toHaveAttribute('data-position', '28');
  await expect(marker).toContainText('the expression ends too early');
  await expect(section(page, 3)).toHaveAttribute('aria-invalid', 'true');
  await saveScreenshot(page, 'passthrough-editor-template-error');
  await marker.getByRole('button', { name: 'Go to character 29' }).click();
  await expect(section(page, 3)).toBeFocused();
  await section(page, 3).fill('items');
  await expectPreview(page, 'ready', `${BACKEND}/orders/v2/items?q=`);
  await expect(page.getByTestId('template-error')).toHaveCount(0);
});

test('creating a Passthrough API: header rules, CORS origins and an access policy in one save, shown again after a reload', async ({
  page,
}) => {
  await givenNoPassthrough();
  await openEditor(page, ordersId, 'editor-create');
  await section(page, 1).fill('{{#env.backend.url}}');
  await section(page, 2).fill('orders/v2');
  await section(page, 3).fill('items');
  await section(page, 4).fill('q={{#api.QueryParameters}}');
  await expectPreview(page, 'ready', `${BACKEND}/orders/v2/items?q=`);

  // Header entries: Add, Overwrite (a suggested name, a secret reference), Remove (no value).
  await addHeaderEntry(page, 1, 'Add', 'X-Tenant', 'acme');
  await addHeaderEntry(page, 2, 'Overwrite', 'Authorization', 'Bearer {{#env.backend.token}}');
  await addHeaderEntry(page, 3, 'Remove', 'Cookie');
  await expect(page.getByLabel('Header 3 value', { exact: true })).toBeDisabled();
  await headerRow(page, 3).getByRole('button', { name: 'Move header 3 up' }).click();
  await expect(page.getByRole('combobox', { name: 'Header 2 name' })).toHaveValue('Cookie');
  await expect(page.getByRole('button', { name: 'Move header 2 up' })).toBeFocused();
  await expectPreview(page, 'ready');
  await page.getByRole('button', { name: /Forwarded headers/ }).click();
  const forwarded = page.getByTestId('forwarded-headers');
  await expect(forwarded).toContainText('x-tenant');
  // A credential header is masked whole in the preview.
  await expect(forwarded).toContainText('authorization********');
  expect(await page.content()).not.toContain('editor-secret-token');

  // CORS: origins become chips; one that is not an origin is refused with the reason.
  await page.getByLabel('Enable CORS for browser clients of the exposed endpoint').check();
  const origins = page.getByRole('combobox', { name: 'Allowed origins' });
  await origins.fill('https://app.example.com');
  await origins.press('Enter');
  await origins.fill('https://*.Example.com');
  await origins.press('Enter');
  await origins.fill('app.example.com/path');
  await origins.press('Enter');
  await expect(page.getByText('app.example.com/path — Use *')).toBeVisible();
  await origins.fill('');
  await expect(page.getByRole('button', { name: 'https://app.example.com' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'https://*.example.com' })).toBeVisible();

  // The access policy goes with the same request.
  await expect(page.getByLabel('Add an access policy (created with the configuration)')).toBeChecked();
  await page.getByLabel('Public (everyone)').check();
  await saveScreenshot(page, 'passthrough-editor-create');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Passthrough API created and deployed')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Modify Passthrough API' })).toBeVisible();
  await expect(page.getByTestId('save-status')).toHaveText('All changes are saved and deployed.');

  const stored = await saved();
  expect(stored.allOperations?.target).toEqual({
    section1: '{{#env.backend.url}}',
    section2: 'orders/v2',
    section3: 'items',
    section4: 'q={{#api.QueryParameters}}',
  });
  expect(stored.allOperations?.headers).toEqual([
    { action: 'Add', name: 'X-Tenant', value: 'acme' },
    { action: 'Remove', name: 'Cookie' },
    { action: 'Overwrite', name: 'Authorization', value: 'Bearer {{#env.backend.token}}' },
  ]);
  expect(stored.allOperations?.cors).toMatchObject({
    enabled: true,
    allowedOrigins: ['https://app.example.com', 'https://*.example.com'],
  });
  const policies = await api.call<{ data: { name: string; grants: { type: string }[] }[] }>(
    'GET',
    '/api/v1/policies',
  );
  expect(policies.data).toContainEqual(
    expect.objectContaining({ name: 'Orders API passthrough', grants: [{ type: 'public' }] }),
  );

  // Reloaded, the editor shows what was saved.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Modify Passthrough API' })).toBeVisible();
  await expect(section(page, 1)).toHaveValue('{{#env.backend.url}}');
  await expect(page.getByRole('combobox', { name: 'Header 3 name' })).toHaveValue('Authorization');
  await expect(page.getByRole('button', { name: 'https://*.example.com' })).toBeVisible();
  await expectPreview(page, 'ready', `${BACKEND}/orders/v2/items?q=`);
  await expect(
    page.getByText('Requests to this API are admitted by “Orders API passthrough”.'),
  ).toBeVisible();
});

test('WebSocket relay and the response headers CORS exposes: set in the editor, saved, shown after a reload', async ({
  page,
}) => {
  await givenSavedPassthrough();
  await openEditor(page, ordersId, 'editor-websocket');
  const relay = page.getByLabel('Relay WebSocket connections to the target');
  await expect(relay).not.toBeChecked();
  await relay.check();

  await page.getByLabel('Enable CORS for browser clients of the exposed endpoint').check();
  const origins = page.getByRole('combobox', { name: 'Allowed origins' });
  await origins.fill('https://app.example.com');
  await origins.press('Enter');
  const exposed = page.getByRole('combobox', { name: 'Exposed response headers' });
  // A suggestion, a typed name, a duplicate in another case (kept once), and a name that is no header name.
  await exposed.click();
  await page.getByRole('option', { name: 'ETag', exact: true }).click();
  await exposed.fill('X-Total-Count');
  await exposed.press('Enter');
  await exposed.fill('etag');
  await exposed.press('Enter');
  await exposed.fill('Bad Header');
  await exposed.press('Enter');
  await expect(page.getByText('Bad Header — not a valid header name')).toBeVisible();
  await exposed.fill('');
  await expect(page.getByRole('button', { name: 'X-Total-Count' })).toBeVisible();
  await saveScreenshot(page, 'passthrough-editor-websocket');

  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('save-status')).toHaveText('All changes are saved and deployed.');
  const stored = (await saved()).allOperations!;
  expect(stored.allowWebSocket).toBe(true);
  expect(stored.cors).toMatchObject({
    enabled: true,
    allowedOrigins: ['https://app.example.com'],
    exposeHeaders: ['ETag', 'X-Total-Count'],
  });

  await page.reload();
  await expect(page.getByLabel('Relay WebSocket connections to the target')).toBeChecked();
  await expect(page.getByRole('button', { name: 'ETag' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'X-Total-Count' })).toBeVisible();
  // Off again: saved as off.
  await page.getByLabel('Relay WebSocket connections to the target').uncheck();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('save-status')).toHaveText('All changes are saved and deployed.');
  expect((await saved()).allOperations!.allowWebSocket).toBe(false);
});

test('unsaved changes hold a navigation for a confirmation, and Back too', async ({ page }) => {
  await givenSavedPassthrough();
  // Opened from the API's details, so Back stays in the console.
  await signInWithToken(page, gatehouse, 'Operator', 'editor-guard', `/apis/${ordersId}`);
  await page.getByRole('link', { name: 'Modify Passthrough API for Orders API' }).click();
  await expect(section(page, 2)).toHaveValue('orders/v2');
  await section(page, 2).fill('orders/v3');
  await expect(page.getByTestId('save-status')).toHaveText('Unsaved changes.');

  await navigation(page).getByRole('link', { name: 'API policies', exact: true }).click();
  const leave = page.getByRole('dialog', { name: 'Leave without saving?' });
  await expect(leave).toBeVisible();
  await saveScreenshot(page, 'passthrough-editor-leave');
  await leave.getByRole('button', { name: 'Stay' }).click();
  await expect(leave).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/apis/${ordersId}/passthrough$`));
  await expect(section(page, 2)).toHaveValue('orders/v3');

  // Back is undone until confirmed.
  await page.goBack();
  await expect(leave).toBeVisible();
  await leave.getByRole('button', { name: 'Stay' }).click();
  await expect(page).toHaveURL(new RegExp(`/apis/${ordersId}/passthrough$`));
  await expect(section(page, 2)).toHaveValue('orders/v3');

  // Closing the window asks through beforeunload.
  const prompts: string[] = [];
  page.once('dialog', (dialog) => {
    prompts.push(dialog.type());
    void dialog.dismiss();
  });
  await page.close({ runBeforeUnload: true });
  await expect.poll(() => prompts).toEqual(['beforeunload']);
  expect(page.isClosed()).toBe(false);

  await navigation(page).getByRole('link', { name: 'API policies', exact: true }).click();
  await leave.getByRole('button', { name: 'Leave and discard' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'API policies' })).toBeVisible();
  expect((await saved()).allOperations?.target.section2).toBe('orders/v2');
});

test('a per-operation entry from the All operations defaults, with its path parameter; then removed', async ({
  page,
}) => {
  await givenSavedPassthrough();
  await openEditor(page, ordersId, 'editor-operation');
  await expect(operationOption(page, ORDER_BY_ID)).toHaveAttribute('data-own-entry', 'false');
  await operationOption(page, ORDER_BY_ID).click();
  await expect(page.getByText('forwarded with the All operations configuration')).toBeVisible();
  await page.getByRole('button', { name: 'Create an entry from the All operations defaults' }).click();
  await expect(section(page, 1)).toHaveValue('{{#env.backend.url}}');
  await expect(operationOption(page, ORDER_BY_ID)).toHaveAttribute('data-own-entry', 'true');

  await section(page, 3).fill('');
  await page.keyboard.type('order/{{#api.Op');
  await page.getByRole('option', { name: /#api\.OperationPath\.orderId/ }).click();
  await expect(section(page, 3)).toHaveValue('order/{{#api.OperationPath.orderId}}');
  await expectPreview(page, 'ready', `${BACKEND}/orders/v2/order/sample-orderId`);

  // The sample request is editable.
  await page.getByRole('button', { name: 'Sample request' }).click();
  await page.getByLabel('Sample URL').fill('/orders/42?x=1');
  await expectPreview(page, 'ready', `${BACKEND}/orders/v2/order/42?q=x=1`);
  await saveScreenshot(page, 'passthrough-editor-operation');

  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Passthrough saved and deployed')).toBeVisible();
  expect((await saved()).operations[ORDER_BY_ID]?.target.section3).toBe(
    'order/{{#api.OperationPath.orderId}}',
  );

  await page.getByRole('button', { name: "Remove this operation's entry" }).click();
  await expect(operationOption(page, ORDER_BY_ID)).toHaveAttribute('data-own-entry', 'false');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('save-status')).toHaveText('All changes are saved and deployed.');
  expect((await saved()).operations).toEqual({});
});

test('refused saves: a field error mapped to its field, a deployment refused for a missing value', async ({
  page,
}) => {
  await givenSavedPassthrough();
  await openEditor(page, ordersId, 'editor-errors');
  await page.getByRole('button', { name: /Advanced/ }).click();
  await page.getByLabel('Extra CA certificates (PEM)').fill('not a certificate');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('save-errors')).toBeVisible();
  await expect(page.getByText('Paste the CA certificate in PEM form')).toBeVisible();
  await page.getByLabel('Extra CA certificates (PEM)').fill('');
  await expect(page.getByText('Paste the CA certificate in PEM form')).toBeHidden();

  await section(page, 1).fill('{{#env.unset}}');
  await expectPreview(page, 'error');
  await page.getByRole('button', { name: 'Save' }).click();
  const refusal = page.getByTestId('deploy-error');
  await expect(refusal).toContainText('Not deployed, so nothing was saved');
  await expect(refusal).toContainText('#env.unset has no value in environment');
  await expect(refusal.getByRole('listitem')).toHaveText(
    "Missing value in environment 'Development': #env.unset",
  );
  await saveScreenshot(page, 'passthrough-editor-deploy-error');
  await page.getByRole('button', { name: 'Discard changes' }).click();
  await expect(section(page, 1)).toHaveValue('{{#env.backend.url}}');
});

test('a deployment refused for a legacy agent group says where passthrough runs', async ({ page }) => {
  await givenNoPassthrough();
  const legacy = await api.call<{ id: string }>('POST', '/api/v1/agent-groups', {
    name: 'Mainframe',
    environmentId: 'development',
    platform: 'legacy',
  });
  await api.call('PATCH', `/api/v1/apis/${ordersId}`, { agentGroupIds: [legacy.id] });
  try {
    await openEditor(page, ordersId, 'editor-legacy');
    await section(page, 1).fill('https://orders.example.test');
    await page.getByRole('button', { name: 'Save' }).click();
    const refusal = page.getByTestId('deploy-error');
    await expect(refusal).toContainText('Not deployed, so nothing was saved');
    await expect(refusal).toContainText('Passthrough runs on cross-platform agents only');
    await expect(refusal).not.toContainText('Give each referenced variable a value');
    await page.getByRole('button', { name: 'Discard changes' }).click();
  } finally {
    await api.call('PATCH', `/api/v1/apis/${ordersId}`, { agentGroupIds: ['default'] });
    await api.call('DELETE', `/api/v1/agent-groups/${legacy.id}`);
  }
});

test('an API with 3000 operations: a virtualized list, filtered and walked by keyboard', async ({ page }) => {
  const bulk = await api.call<{ api: { id: string } }>(
    'POST',
    '/api/v1/apis',
    JSON.parse(bulkApiDocument(3000)),
  );
  await openEditor(page, bulk.api.id, 'editor-bulk');
  const list = operationList(page);
  await expect(page.getByText('3000 operations', { exact: true })).toBeVisible();
  const rendered = await list.getByRole('option').count();
  expect(rendered).toBeGreaterThan(3);
  expect(rendered).toBeLessThan(40);
  await expect(list.getByRole('option').first()).toHaveAttribute('aria-setsize', '3001');

  await list.focus();
  await page.keyboard.press('End');
  const last = operationOption(page, 'GET /items/3000/{itemId}');
  await expect(last).toHaveAttribute('aria-selected', 'true');
  await expect(last).toBeInViewport();
  await expect(page.getByRole('heading', { level: 2, name: /\/items\/3000\/\{itemId\}/ })).toBeVisible();
  expect(await list.getByRole('option').count()).toBeLessThan(40);
  await page.keyboard.press('ArrowUp');
  await expect(operationOption(page, 'GET /items/2999/{itemId}')).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Home');
  await expect(operationOption(page, 'allOperations')).toHaveAttribute('aria-selected', 'true');

  await page.getByLabel('Filter operations').fill('items/1234');
  await expect(page.getByText('1 of 3000 operations', { exact: true })).toBeVisible();
  await page.getByLabel('Filter operations').press('ArrowDown');
  await expect(list).toBeFocused();
  await expect(operationOption(page, 'GET /items/1234/{itemId}')).toHaveAttribute('aria-selected', 'true');
  await saveScreenshot(page, 'passthrough-editor-bulk');
});

test('the editor fits a 1024 px wide window', async ({ page }) => {
  await givenSavedPassthrough();
  await page.setViewportSize({ width: 1024, height: 768 });
  await openEditor(page, ordersId, 'editor-narrow');
  await addHeaderEntry(page, 1, 'Overwrite', 'Authorization', 'Bearer {{#env.backend.token}}');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, 'the editor scrolls sideways').toBeLessThanOrEqual(0);
  await saveScreenshot(page, 'passthrough-editor-1024px');
});
