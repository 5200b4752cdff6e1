import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { startGatehouse, type StartedGatehouse } from './gatehouse-fixture.js';
import { saveScreenshot } from './support/accessibility.js';
import { signInWithToken } from './support/console.js';
import { catalogDocument, NOT_OPENAPI, ORDERS_NEXT, SYNTAX_ERROR, WIDGETS } from './support/api-documents.js';
import { droppedFileFrom, dropFile } from './support/file-drop.js';
import { managementApi, type ManagementApi } from './support/management-api.js';

const sample = (name: string) => fileURLToPath(new URL(`../../resources/samples/${name}`, import.meta.url));
const ORDERS_YAML = sample('orders-api.openapi.yaml');
const INVENTORY_JSON = sample('inventory-api.openapi.json');

let gatehouse: StartedGatehouse;
let api: ManagementApi;

test.beforeAll(async () => {
  gatehouse = await startGatehouse();
  api = await managementApi(gatehouse);
});
test.afterAll(async () => {
  await gatehouse.stop();
});

test.describe.configure({ mode: 'serial' });

const apiRow = (page: Page, name: string) => page.locator(`[data-api-name="${name}"]`);
const importDialog = (page: Page) => page.getByRole('dialog', { name: 'Import an API' });

async function openApis(page: Page, user: string): Promise<void> {
  await signInWithToken(page, gatehouse, 'Operator', user, '/apis');
  await expect(page.getByRole('heading', { level: 1, name: 'APIs' })).toBeVisible();
}

/** Opens the import dialog and chooses a file through the file chooser, as a user would. */
async function chooseInImportDialog(page: Page, file: Parameters<Page['setInputFiles']>[1]): Promise<void> {
  await page.getByRole('button', { name: 'Import API' }).click();
  const chooser = page.waitForEvent('filechooser');
  await importDialog(page).getByRole('button', { name: 'Choose file' }).click();
  await (await chooser).setFiles(file);
}

test('the empty state, then the Orders API imported with the file picker', async ({ page }) => {
  await openApis(page, 'apis-importer');
  const empty = page.getByTestId('apis-empty-state');
  await expect(empty).toContainText('No APIs yet');
  await expect(empty).toContainText('resources/samples/');
  await expect(empty).toContainText('orders-api.openapi.yaml');
  await saveScreenshot(page, 'apis-empty');

  await empty.getByRole('button', { name: 'Import an OpenAPI document' }).click();
  const dialog = importDialog(page);
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(dialog.getByTestId('document-problem')).toContainText(
    'Choose or drop an OpenAPI document first.',
  );

  const chooser = page.waitForEvent('filechooser');
  await dialog.getByRole('button', { name: 'Choose file' }).click();
  await (await chooser).setFiles(ORDERS_YAML);
  await expect(dialog.getByTestId('chosen-document')).toContainText('orders-api.openapi.yaml');
  await expect(dialog.getByTestId('chosen-document')).toContainText('9 KB');
  await expect(dialog.getByRole('combobox', { name: 'Agent group' })).toHaveText('Default');
  await saveScreenshot(page, 'apis-import-dialog');
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('API “Orders API” imported')).toBeVisible();

  const row = apiRow(page, 'Orders API');
  await expect(row).toContainText('1.4.0');
  await expect(row).toContainText('OpenAPI 3.0');
  await expect(row).toContainText('/orders-api/v1');
  await expect(row).toContainText('Default');
  await expect(row.getByTestId('operation-count')).toHaveText('7');
  await expect(row.getByTestId('passthrough-status')).toHaveText('None');
  const create = row.getByRole('link', { name: 'Create Passthrough API for Orders API' });
  await expect(create).toHaveAttribute('href', /^\/apis\/[0-9a-f-]+\/passthrough$/);
});

test('a document dropped on the screen opens the import with it; one dropped on the dialog replaces it', async ({
  page,
}) => {
  await openApis(page, 'apis-dropper');
  await dropFile(page.getByTestId('apis-drop-area'), await droppedFileFrom(INVENTORY_JSON));
  const dialog = importDialog(page);
  await expect(dialog.getByTestId('chosen-document')).toContainText('inventory-api.openapi.json');
  await dialog.getByRole('textbox', { name: 'Name (optional)' }).fill('Stock levels');
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(apiRow(page, 'Stock levels')).toContainText('/inventory/v2');
  await expect(apiRow(page, 'Stock levels')).toContainText('OpenAPI 3.1');

  // Onto the dialog's drop zone: the dropped file replaces the chosen one; its warnings are shown after import.
  await chooseInImportDialog(page, INVENTORY_JSON);
  await dropFile(dialog.getByTestId('document-drop-zone'), {
    name: 'widgets.json',
    content: WIDGETS,
    type: 'application/json',
  });
  await expect(dialog.getByTestId('chosen-document')).toContainText('widgets.json');
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  const warnings = dialog.getByTestId('import-warnings');
  await expect(warnings).toContainText('Widgets was imported with 1 operation');
  await expect(warnings.getByTestId('issue-pointer')).toHaveText('/paths/~1widgets/get/parameters/0');
  await expect(warnings).toContainText('paths › /widgets › get › parameters › 0');
  await expect(warnings.getByTestId('issue-message')).toContainText('does not appear in "/widgets"');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();
  await expect(apiRow(page, 'Widgets')).toContainText('/widgets');

  await page.getByRole('textbox', { name: 'Search APIs' }).fill('inventory');
  await expect(page.getByRole('status').filter({ hasText: '1 of 3 APIs' })).toBeVisible();
  await expect(apiRow(page, 'Stock levels')).toBeVisible();
  await expect(apiRow(page, 'Orders API')).toHaveCount(0);
});

test('a document that is no API description is refused; a syntax error names its line and column', async ({
  page,
}) => {
  await openApis(page, 'apis-invalid');
  await chooseInImportDialog(page, {
    name: 'package.yaml',
    mimeType: 'application/yaml',
    buffer: Buffer.from(NOT_OPENAPI),
  });
  const dialog = importDialog(page);
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  const problem = dialog.getByTestId('document-problem');
  await expect(problem).toContainText('The document has 1 error');
  await expect(problem).toContainText('Nothing usable can be taken from the document');
  const issues = problem.getByTestId('definition-issue');
  await expect(issues.nth(0).getByTestId('issue-pointer')).toHaveText('/openapi');
  await expect(issues.nth(0).getByTestId('issue-message')).toContainText(
    'not an OpenAPI or Swagger document',
  );
  await expect(dialog.getByRole('button', { name: 'Import', exact: true })).toBeEnabled();
  await saveScreenshot(page, 'apis-import-invalid');

  const chooser = page.waitForEvent('filechooser');
  await dialog.getByRole('button', { name: 'Choose another file' }).click();
  await (
    await chooser
  ).setFiles({ name: 'broken.yaml', mimeType: 'application/yaml', buffer: Buffer.from(SYNTAX_ERROR) });
  await expect(problem).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(problem).toContainText('The document has 1 error');
  await expect(problem.getByTestId('definition-issue')).toContainText('Whole document');
  await expect(problem.getByTestId('issue-message')).toHaveText(
    'YAML syntax error at line 6, column 1: deficient indentation',
  );
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
});

test('a base path that overlaps another API of the agent group is refused (409)', async ({ page }) => {
  await openApis(page, 'apis-overlap');
  await chooseInImportDialog(page, ORDERS_YAML);
  const dialog = importDialog(page);
  await dialog.getByRole('textbox', { name: 'Name (optional)' }).fill('Orders copy');
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  const problem = dialog.getByTestId('document-problem');
  await expect(problem).toContainText('The base path overlaps another API');
  await expect(problem).toContainText(
    "The base path /orders-api/v1 overlaps the base path /orders-api/v1 of the API 'Orders API'",
  );
  await expect(dialog.getByRole('button', { name: 'Import', exact: true })).toBeEnabled();
  await saveScreenshot(page, 'apis-import-overlap');
  await problem.getByRole('link', { name: 'Orders API', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Orders API' })).toBeVisible();
  await expect(apiRow(page, 'Orders copy')).toHaveCount(0);
});

test('the details: definition, operations, and a re-import that lists the operations gone', async ({
  page,
}) => {
  await openApis(page, 'apis-details');
  await apiRow(page, 'Orders API').getByRole('link', { name: 'Orders API', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Orders API' })).toBeFocused();
  await expect(page).toHaveURL(/\/apis\/[0-9a-f-]+$/);
  await expect(page.getByTestId('api-base-path')).toHaveText('/orders-api/v1');
  await expect(page.getByTestId('api-server-url')).toHaveText('https://api.example.com/orders-api/v1');
  await expect(page.getByTestId('api-agent-groups')).toContainText('Default');

  const operations = page.getByRole('table', { name: 'Operations' });
  await expect(operations.locator('tbody tr')).toHaveCount(7);
  const getOrder = operations.locator('[data-operation="GET /orders/{orderId}"]');
  await expect(getOrder).toContainText('GET');
  await expect(getOrder).toContainText('getOrder');
  await expect(getOrder).toContainText('/orders/{orderId}');
  await page.getByRole('textbox', { name: 'Filter operations' }).fill('shipment');
  await expect(operations.locator('tbody tr')).toHaveCount(2);
  await page.getByRole('textbox', { name: 'Filter operations' }).fill('');
  await saveScreenshot(page, 'api-details');

  await page.getByRole('button', { name: 'Re-import' }).click();
  const dialog = page.getByRole('dialog', { name: 'Re-import Orders API' });
  await dropFile(dialog.getByTestId('document-drop-zone'), {
    name: 'orders-1.5.json',
    content: ORDERS_NEXT,
    type: 'application/json',
  });
  await dialog.getByRole('button', { name: 'Re-import' }).click();
  // What changes is shown first; nothing is applied before the admin says so.
  const summary = dialog.getByTestId('change-summary');
  await expect(summary).toContainText('1 operation added, 4 removed');
  await expect(summary).toContainText('3 kept');
  await expect(summary.getByTestId('changed-operations')).toContainText(
    'GET /orders/{id}: path /orders/{orderId} → /orders/{id}',
  );
  await saveScreenshot(page, 'api-reimport-summary');
  await dialog.getByRole('button', { name: 'Apply re-import' }).click();
  const outcome = dialog.getByTestId('reimport-outcome');
  await expect(outcome).toContainText('Orders API is now at revision 2 (version 1.5.0)');
  await expect(outcome).toContainText('3 operations kept, 1 added, 4 operations are gone.');
  const removed = outcome.getByTestId('removed-operations');
  for (const key of [
    'POST /orders',
    'PATCH /orders/{orderId}',
    'DELETE /orders/{orderId}',
    'GET /orders/{orderId}/shipments/{shipmentId}',
  ]) {
    await expect(removed.getByText(key, { exact: true })).toBeVisible();
  }
  await expect(outcome.getByTestId('added-operations')).toHaveText('POST /orders/{id}/refunds');
  await saveScreenshot(page, 'api-reimport-outcome');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(operations.locator('tbody tr')).toHaveCount(4);
  await expect(operations.locator('[data-operation="POST /orders/{id}/refunds"]')).toContainText(
    'Refund an order',
  );
  await expect(page.getByText('OpenAPI 3.1 (application/json)')).toBeVisible();
});

test('the passthrough status, and the link to the Passthrough editor', async ({ page }) => {
  const orders = (await api.call<{ data: { id: string; name: string }[] }>('GET', '/api/v1/apis')).data.find(
    (candidate) => candidate.name === 'Orders API',
  )!;
  await api.call('POST', `/api/v1/apis/${orders.id}/passthrough`, {
    allOperations: { target: { section1: 'https://orders.example.com', section2: 'orders' } },
  });
  await openApis(page, 'apis-passthrough');
  const row = apiRow(page, 'Orders API');
  await expect(row.getByTestId('passthrough-status')).toHaveText('Deployed');
  await expect(apiRow(page, 'Widgets').getByTestId('passthrough-status')).toHaveText('None');
  await row.getByRole('link', { name: 'Modify Passthrough API for Orders API' }).click();
  await expect(page).toHaveURL(new RegExp(`/apis/${orders.id}/passthrough$`));
});

test('agent groups: a legacy group is refused for a passthrough, a cross-platform one is added', async ({
  page,
}) => {
  await api.call('POST', '/api/v1/agent-groups', {
    name: 'Mainframe',
    environmentId: 'development',
    platform: 'legacy',
  });
  await api.call('POST', '/api/v1/agent-groups', { name: 'Partners', environmentId: 'development' });
  await openApis(page, 'apis-groups');
  await apiRow(page, 'Orders API').getByRole('link', { name: 'Orders API', exact: true }).click();
  await page.getByRole('button', { name: 'Change agent groups' }).click();
  const dialog = page.getByRole('dialog', { name: 'Agent groups of Orders API' });
  await dialog.getByRole('checkbox', { name: 'Mainframe (legacy: no passthrough)' }).check();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByRole('alert')).toContainText('The agent groups were not changed');
  await dialog.getByRole('checkbox', { name: 'Mainframe (legacy: no passthrough)' }).uncheck();
  await dialog.getByRole('checkbox', { name: 'Partners' }).check();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('api-agent-groups')).toContainText('Default, Partners');
  await page.getByRole('link', { name: 'APIs', exact: true }).first().click();
  await expect(apiRow(page, 'Orders API')).toContainText('Partners');
});

test('a large document shows upload progress; its thousands of operations are paged and filtered', async ({
  page,
}) => {
  await openApis(page, 'apis-large');
  const content = Buffer.from(catalogDocument());
  // A slow uplink, so the upload takes long enough to watch.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 20,
    downloadThroughput: -1,
    uploadThroughput: 400 * 1024,
  });
  await chooseInImportDialog(page, { name: 'catalog.json', mimeType: 'application/json', buffer: content });
  const dialog = importDialog(page);
  await expect(dialog.getByTestId('chosen-document')).toContainText('catalog.json · 1.');
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  const progress = dialog.getByTestId('upload-progress');
  await expect(progress).toContainText(/Uploading catalog\.json: .* of 1\.\d MB \(\d+%\)/);
  await expect(progress.getByRole('progressbar')).toHaveAttribute('aria-valuenow', /\d+/);
  await saveScreenshot(page, 'apis-import-progress');
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  await expect(apiRow(page, 'Catalog').getByTestId('operation-count')).toHaveText('3,000');

  await apiRow(page, 'Catalog').getByRole('link', { name: 'Catalog', exact: true }).click();
  const operations = page.getByRole('table', { name: 'Operations' });
  await expect(operations.locator('tbody tr')).toHaveCount(50);
  await expect(page.getByText('1–50 of 3,000')).toBeVisible();
  await page.getByRole('button', { name: 'Go to next page' }).click();
  await expect(operations.locator('[data-operation="GET /items/0051"]')).toBeVisible();
  await page.getByRole('textbox', { name: 'Filter operations' }).fill('getItem2999');
  await expect(operations.locator('tbody tr')).toHaveCount(1);
  await expect(operations).toContainText('/items/2999');
});

test('an API is deleted after confirmation', async ({ page }) => {
  await openApis(page, 'apis-deleter');
  await apiRow(page, 'Widgets').getByRole('link', { name: 'Widgets', exact: true }).click();
  await page.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete the API Widgets?' });
  await expect(confirm).toContainText('Requests to /widgets are no longer routed.');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await page.getByRole('button', { name: 'Delete' }).click();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('API “Widgets” deleted')).toBeVisible();
  await expect(page).toHaveURL(/\/apis$/);
  await expect(apiRow(page, 'Widgets')).toHaveCount(0);
  await expect(apiRow(page, 'Orders API')).toBeVisible();

  const gone = (await api.call<{ data: { name: string }[] }>('GET', '/api/v1/apis')).data;
  expect(gone.map((candidate) => candidate.name)).not.toContain('Widgets');
});
