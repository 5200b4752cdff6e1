import { expect, test, type Page } from '@playwright/test';
import { startGatehouse, type StartedGatehouse } from './gatehouse-fixture.js';
import { saveScreenshot } from './support/accessibility.js';
import { typeUtcDateTime } from './support/audit-log.js';
import { signInWithToken } from './support/console.js';
import { startEchoUpstream, type EchoUpstream } from './support/echo-upstream.js';
import { managementApi } from './support/management-api.js';

let gatehouse: StartedGatehouse;
let upstream: EchoUpstream;

test.beforeAll(async () => {
  [gatehouse, upstream] = await Promise.all([startGatehouse(), startEchoUpstream()]);
  // An API forwarded to a backend, with no policy yet: the gateway refuses every request.
  const api = await managementApi(gatehouse);
  const orders = await api.importOrdersApi();
  await api.call('POST', `/api/v1/apis/${orders.id}/passthrough`, {
    allOperations: { target: { section1: upstream.url, section2: 'orders' } },
  });
});
test.afterAll(async () => {
  await Promise.all([gatehouse.stop(), upstream.close()]);
});

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

async function gatewayStatus(path: string, headers: Record<string, string> = {}): Promise<number> {
  const response = await fetch(`${gatehouse.gatewayUrl}${path}`, { headers });
  await response.arrayBuffer();
  return response.status;
}

function policyRow(page: Page, name: string) {
  return page.locator(`[data-policy-name="${name}"]`);
}

async function createApiKeyPolicy(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'New policy' }).click();
  const form = page.getByRole('dialog', { name: 'New API policy' });
  await form.getByRole('button', { name: 'Create' }).click();
  await expect(form.getByText('Enter a name.')).toBeVisible();
  await form.getByRole('textbox', { name: 'Policy name' }).fill('Orders partners');
  await expect(form.getByRole('combobox', { name: 'Agent group' })).toHaveText('Default');
  await form.getByRole('textbox', { name: 'Endpoint 1 path prefix' }).fill('/orders-api/v1');
  await expect(form.getByRole('textbox', { name: 'Grant 1 header name' })).toHaveValue('X-API-Key');
  await form.getByRole('textbox', { name: 'Grant 1 query parameter name' }).fill('api_key');
  await form.getByRole('switch', { name: 'Limit the number of requests' }).check();
  await form.getByRole('spinbutton', { name: 'Requests at most' }).fill('100');
  await saveScreenshot(page, 'api-policies-create');
  await form.getByRole('button', { name: 'Create' }).click();
  await expect(form).toBeHidden();
}

test('a policy with an API-key grant, and an API key shown once, then only by its prefix', async ({
  page,
}) => {
  await signInWithToken(page, gatehouse, 'Operator', 'policies-admin', '/api-policies');
  await expect(page.getByText('No API policies here yet.')).toBeVisible();
  expect(await gatewayStatus('/orders-api/v1/orders')).toBe(401);

  await createApiKeyPolicy(page);
  const row = policyRow(page, 'Orders partners');
  await expect(row).toContainText('ALL /orders-api/v1');
  await expect(row).toContainText('API key in header X-API-Key or query api_key');
  await expect(row).toContainText('100 per minute');
  expect(await gatewayStatus('/orders-api/v1/orders')).toBe(401);

  await page.getByRole('button', { name: 'New API key' }).click();
  const form = page.getByRole('dialog', { name: 'New API key' });
  await form.getByRole('textbox', { name: 'Key name' }).fill('Web shop');
  await expect(form.getByRole('combobox', { name: 'Environment' })).toHaveText('Development');
  await form.getByRole('combobox', { name: 'Limit to policies' }).click();
  await page.getByRole('option', { name: 'Orders partners' }).click();
  await form.getByRole('button', { name: 'Create key' }).click();

  const reveal = page.getByRole('dialog', { name: 'API key “Web shop” created' });
  await expect(reveal.getByText('Copy the key now')).toBeVisible();
  await expect(reveal).toContainText('shown only this once');
  await expect(reveal).toContainText('X-API-Key header');
  const key = (await reveal.getByRole('status', { name: 'API key' }).textContent()) ?? '';
  expect(key).toMatch(/^gatehouse_.{43}$/);
  await reveal.getByRole('button', { name: 'Copy API key' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  await saveScreenshot(page, 'api-policies-key-shown-once');

  // The key is real: the gateway admits it, in the header and in the query parameter of the grant.
  expect(await gatewayStatus('/orders-api/v1/orders', { 'X-API-Key': key })).toBe(200);
  expect(await gatewayStatus(`/orders-api/v1/orders?api_key=${key}`)).toBe(200);
  expect(upstream.received.at(-1)?.url).toMatch(/^\/orders/);

  // A stray click beside the dialog keeps it; Done closes it, and the key is gone for good.
  await page.mouse.click(5, 5);
  await expect(reveal).toBeVisible();
  await reveal.getByRole('button', { name: 'Done' }).click();
  await expect(reveal).toBeHidden();
  const keyRow = page.locator('[data-api-key-name="Web shop"]');
  const prefix = ((await keyRow.getByTestId('api-key-prefix').textContent()) ?? '').replace('…', '');
  expect(prefix.length).toBeGreaterThan(3);
  expect(key.startsWith(prefix)).toBe(true);
  await expect(keyRow).toContainText('Orders partners');
  await expect(keyRow).toContainText('Never');
  expect(await page.content()).not.toContain(key);
  await page.reload();
  await expect(keyRow).toBeVisible();
  expect(await page.content()).not.toContain(key);

  // The policy cannot go while a key is limited to it.
  await row.getByRole('button', { name: 'Delete policy Orders partners' }).click();
  const refuse = page.getByRole('dialog', { name: 'Delete the policy Orders partners?' });
  await refuse.getByRole('button', { name: 'Delete' }).click();
  await expect(refuse.getByTestId('delete-failure')).toContainText('was refused');
  await refuse.getByRole('button', { name: 'Close' }).click();

  await keyRow.getByRole('button', { name: 'Revoke API key Web shop' }).click();
  await page
    .getByRole('dialog', { name: 'Revoke the API key Web shop?' })
    .getByRole('button', { name: 'Revoke' })
    .click();
  await expect(page.getByText('API key “Web shop” revoked')).toBeVisible();
  await expect(keyRow).toHaveCount(0);
  expect(await gatewayStatus('/orders-api/v1/orders', { 'X-API-Key': key })).toBe(401);
});

test('a policy is edited: a JWT grant with claim rules, the throttle removed; then deleted', async ({
  page,
}) => {
  await signInWithToken(page, gatehouse, 'Operator', 'policies-editor', '/api-policies');
  const row = policyRow(page, 'Orders partners');
  await row.getByRole('button', { name: 'Edit policy Orders partners' }).click();
  const form = page.getByRole('dialog', { name: 'Edit policy Orders partners' });
  await expect(form.getByRole('textbox', { name: 'Endpoint 1 path prefix' })).toHaveValue('/orders-api/v1');

  await form.getByRole('button', { name: 'Add grant' }).click();
  await page.getByRole('menuitem', { name: /^Public/ }).click();
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(
    form.getByText('A public grant admits everyone; it cannot be combined with other grants.'),
  ).toBeVisible();
  await form.getByRole('button', { name: 'Remove grant 2 (Public)' }).click();

  await form.getByRole('button', { name: 'Add grant' }).click();
  await page.getByRole('menuitem', { name: /^JWT/ }).click();
  await form.getByRole('textbox', { name: 'Grant 2 issuer' }).fill('login.example.com');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(
    form.getByText('Enter an absolute URL such as https://login.example.com/tenant.'),
  ).toBeVisible();
  await form.getByRole('textbox', { name: 'Grant 2 issuer' }).fill('https://login.example.com/tenant');
  await form.getByRole('textbox', { name: 'Grant 2 audience' }).fill('orders');
  await form.getByRole('button', { name: 'Add claim rule' }).click();
  await form.getByRole('textbox', { name: 'Grant 2 claim 1', exact: true }).fill('roles');
  await form
    .getByRole('textbox', { name: 'Grant 2 claim 1 accepted values' })
    .fill('orders.read, orders.admin');
  await form.getByRole('button', { name: 'Add endpoint' }).click();
  await form.getByRole('combobox', { name: 'Endpoint 2 method' }).click();
  await page.getByRole('option', { name: 'GET', exact: true }).click();
  await form.getByRole('textbox', { name: 'Endpoint 2 path prefix' }).fill('/inventory');
  await form.getByRole('switch', { name: 'Limit the number of requests' }).uncheck();
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();

  await expect(row).toContainText('GET /inventory');
  await expect(row).toContainText('JWT from https://login.example.com/tenant for orders, 1 claim rule');
  await expect(row).toContainText('No limit');

  await page.getByRole('combobox', { name: 'Agent group' }).click();
  await page.getByRole('option', { name: 'Default' }).click();
  await expect(page).toHaveURL(/agentGroupId=default/);
  await expect(row).toBeVisible();
  await saveScreenshot(page, 'api-policies');

  // A key that expires, for every API-key policy of its environment.
  await page.getByRole('button', { name: 'New API key' }).click();
  const keyForm = page.getByRole('dialog', { name: 'New API key' });
  await keyForm.getByRole('textbox', { name: 'Key name' }).fill('Nightly batch');
  await typeUtcDateTime(page, 'Expires (UTC)', new Date(Date.UTC(2031, 0, 31, 23, 0, 0)));
  await keyForm.getByRole('button', { name: 'Create key' }).click();
  await page
    .getByRole('dialog', { name: 'API key “Nightly batch” created' })
    .getByRole('button', { name: 'Done' })
    .click();
  const keyRow = page.locator('[data-api-key-name="Nightly batch"]');
  await expect(keyRow).toContainText('2031-01-31 23:00:00 UTC');
  await expect(keyRow).toContainText('Every API-key policy of its environment');

  await row.getByRole('button', { name: 'Delete policy Orders partners' }).click();
  await page
    .getByRole('dialog', { name: 'Delete the policy Orders partners?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(page.getByText('Policy “Orders partners” deleted')).toBeVisible();
  await expect(row).toHaveCount(0);
});
