import { expect, test, type Page } from '@playwright/test';
import { startGatehouse, type StartedGatehouse } from './gatehouse-fixture.js';
import { signInWithToken } from './support/console.js';
import { managementApi, type ManagementApi } from './support/management-api.js';
import { addHeaderEntry, expectPreview, section } from './support/passthrough-editor.js';

let gatehouse: StartedGatehouse;
let api: ManagementApi;
let ordersId: string;

test.beforeAll(async () => {
  gatehouse = await startGatehouse();
  api = await managementApi(gatehouse);
  const backend = await api.call<{ id: string }>('POST', '/api/v1/environment-variables', {
    kind: 'group',
    name: 'backend',
    members: [{ name: 'url', type: 'string' }],
  });
  await api.call('PUT', `/api/v1/environment-variables/${backend.id}/values/development`, {
    members: { url: 'https://backend.example.com' },
  });
  ordersId = (await api.importOrdersApi()).id;
});
test.afterAll(async () => {
  await gatehouse.stop();
});

async function openEditor(page: Page, user: string): Promise<void> {
  await api.call('DELETE', `/api/v1/apis/${ordersId}/passthrough`).catch(() => undefined);
  await signInWithToken(page, gatehouse, 'Operator', user, `/apis/${ordersId}/passthrough`);
  await expect(section(page, 1)).toBeVisible();
}

const saveStatus = (page: Page) => page.getByTestId('save-status');

test('a refused save explains itself at the Save bar and brings the field into view; the CORS message is said once', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await openEditor(page, 'editor-save-feedback');
  await section(page, 1).fill('https://backend.example.com');
  await page.getByLabel('Enable CORS for browser clients of the exposed endpoint').check();
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.getByRole('button', { name: 'Save' }).click();

  // The Save bar says why, in words, not just "Unsaved".
  await expect(saveStatus(page)).toHaveText('Not saved: correct the marked fields in All operations.');
  await expect(saveStatus(page)).toHaveAttribute('role', 'alert');
  // The field is in view and has the focus, far below the top of the page.
  const origins = page.getByRole('combobox', { name: 'Allowed origins' });
  await expect(origins).toBeFocused();
  await expect(origins).toBeInViewport();
  // One message for the one problem: the editor's and the server's say the same thing.
  const helper = page.locator(`#${await origins.getAttribute('aria-describedby')}`);
  await expect(helper).toHaveText('CORS is on: list the allowed origins (or * for any).');

  // Scrolled away, "Show" brings it back.
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(origins).not.toBeInViewport();
  await page.getByRole('button', { name: 'Show', exact: true }).click();
  await expect(origins).toBeInViewport();

  await origins.fill('https://app.example.com');
  await origins.press('Enter');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(saveStatus(page)).toHaveText('All changes are saved and deployed.');
});

test('an unfinished reference is not called an error while it is typed; it is once the field is left', async ({
  page,
}) => {
  await openEditor(page, 'editor-typing');
  await section(page, 1).fill('https://backend.example.com');
  await section(page, 2).click();
  await page.keyboard.type('{{#env.');
  await expect(page.getByRole('listbox', { name: 'References for Target URL section 2' })).toBeVisible();
  await expect(section(page, 2)).toHaveValue('{{#env.');
  // The preview knows the text is incomplete, but the field says nothing while the reference is typed.
  await expectPreview(page, 'error');
  await expect(page.getByTestId('preview-typing')).toHaveText(
    'Finish the reference you are typing to see the URL.',
  );
  await expect(page.getByText("'{{' is not closed by '}}'")).toHaveCount(0);
  await expect(section(page, 2)).toHaveAttribute('aria-invalid', 'false');
  await page.keyboard.press('Escape');
  await section(page, 3).click();
  await expect(section(page, 2)).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('template-error')).toContainText("'{{' is not closed by '}}'");
  await expect(page.getByTestId('target-url-preview')).toContainText("'{{' is not closed by '}}'");
});

test('the preview reads a sample path typed with the base path as the full path and says so; each forwarded header names its rule', async ({
  page,
}) => {
  await openEditor(page, 'editor-preview');
  await section(page, 1).fill('https://backend.example.com');
  await section(page, 3).fill('{{#api.OperationPath}}');
  await page.getByRole('button', { name: 'Sample request' }).click();
  await page.getByRole('textbox', { name: 'Sample URL' }).fill('/orders-api/v1/orders/42');
  await expectPreview(page, 'ready', 'https://backend.example.com/orders/42');
  await expect(page.getByTestId('preview-request-line')).toHaveText('GET /orders-api/v1/orders/42');
  await expect(page.getByTestId('preview-sample-note')).toHaveText(
    'The sample path starts with the base path /orders-api/v1, so it is read as the full path.',
  );
  await page.getByRole('textbox', { name: 'Sample URL' }).fill('/orders/42');
  await expect(page.getByTestId('preview-request-line')).toHaveText('GET /orders-api/v1/orders/42');
  await expect(page.getByTestId('preview-sample-note')).toHaveCount(0);

  await page.getByRole('textbox', { name: 'Sample headers' }).fill('X-Tenant: acme\nX-Debug: 1');
  await addHeaderEntry(page, 1, 'Overwrite', 'X-Tenant', 'contoso');
  await addHeaderEntry(page, 2, 'Add', 'X-Trace', 'abc');
  await addHeaderEntry(page, 3, 'Remove', 'X-Debug');
  await expectPreview(page, 'ready');
  await page.getByRole('button', { name: /^Forwarded headers/ }).click();
  const forwarded = page.getByTestId('forwarded-headers');
  const originOf = (name: string) =>
    forwarded
      .locator('[data-header-origin]')
      .filter({ has: page.locator('dt', { hasText: new RegExp(`^${name}$`) }) });
  await expect(originOf('x-tenant')).toHaveAttribute('data-header-origin', 'Header 1 (Overwrite)');
  await expect(originOf('x-tenant')).toContainText('contoso');
  await expect(originOf('x-trace')).toHaveAttribute('data-header-origin', 'Header 2 (Add)');
  await expect(originOf('x-debug')).toHaveCount(0);
  await expect(originOf('traceparent')).toHaveAttribute('data-header-origin', 'the gateway');
});
