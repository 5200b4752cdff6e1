import { expect, test } from '@playwright/test';
import { startGatehouse, type StartedGatehouse } from './gatehouse-fixture.js';
import { signInWithToken } from './support/console.js';
import { managementApi } from './support/management-api.js';
import { operationOption, section } from './support/passthrough-editor.js';

let gatehouse: StartedGatehouse;
let ordersId: string;
test.beforeAll(async () => {
  gatehouse = await startGatehouse();
  ordersId = (await (await managementApi(gatehouse)).importOrdersApi()).id;
});
test.afterAll(async () => {
  await gatehouse.stop();
});

test('? opens the shortcuts sheet anywhere but in a text field', async ({ page }) => {
  await signInWithToken(page, gatehouse, 'Auditor', 'keys-reader', '/apis');
  await expect(page.getByRole('heading', { level: 1, name: 'APIs' })).toBeVisible();
  await page.locator('body').press('?');
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(sheet).toBeVisible();
  await expect(sheet.getByRole('region', { name: 'Passthrough editor' })).toContainText(
    'Next or previous operation',
  );
  await page.keyboard.press('Escape');
  await expect(sheet).toBeHidden();

  const search = page.getByLabel('Search APIs');
  await search.press('?');
  await expect(search).toHaveValue('?');
  await expect(sheet).toBeHidden();
  await page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
  await expect(sheet).toBeVisible();
});

test('the Passthrough editor without a mouse: filter, next and previous operation, add a header entry, save', async ({
  page,
}) => {
  await signInWithToken(page, gatehouse, 'Operator', 'keys-editor', `/apis/${ordersId}/passthrough`);
  await expect(section(page, 1)).toBeVisible();
  await section(page, 1).focus();
  await page.keyboard.type('https://backend.example.com');

  // A header entry from the keyboard: its name field takes the focus, as with the button.
  await page.keyboard.press('Alt+Shift+H');
  const name = page.getByRole('combobox', { name: 'Header 1 name' });
  await expect(name).toBeFocused();
  await page.keyboard.type('X-Client');
  await page.keyboard.press('Escape');
  await page.getByLabel('Header 1 value', { exact: true }).focus();
  await page.keyboard.type('gatehouse');

  // Next and previous operation, from inside a field.
  await expect(operationOption(page, 'allOperations')).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Alt+ArrowDown');
  await expect(operationOption(page, 'GET /orders')).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator(':focus')).not.toHaveCount(0);
  await page.keyboard.press('Alt+ArrowDown');
  await expect(operationOption(page, 'POST /orders')).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Alt+ArrowUp');
  await page.keyboard.press('Alt+ArrowUp');
  await expect(operationOption(page, 'allOperations')).toHaveAttribute('aria-selected', 'true');
  await expect(section(page, 1)).toHaveValue('https://backend.example.com');

  // `/` goes to the filter; Alt+↓ then walks the filtered list.
  await page.locator('[data-entry-heading]').focus();
  await page.keyboard.press('/');
  const filter = page.getByRole('searchbox', { name: 'Filter operations' });
  await expect(filter).toBeFocused();
  await page.keyboard.type('shipments');
  // Alt+↓ walks the list as shown: once the filter has narrowed it.
  await expect(page.getByText('2 of 7 operations')).toBeVisible();
  await page.keyboard.press('Alt+ArrowDown');
  await expect(operationOption(page, 'GET /orders/{orderId}/shipments')).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await page.keyboard.press('Alt+ArrowUp');
  await expect(operationOption(page, 'allOperations')).toHaveAttribute('aria-selected', 'true');

  await page.keyboard.press('ControlOrMeta+s');
  await expect(page.getByTestId('save-status')).toHaveText('All changes are saved and deployed.');
  const saved = (await (
    await fetch(`${gatehouse.controlPanelUrl}/api/v1/apis/${ordersId}/passthrough`, {
      headers: { Authorization: `Bearer ${await gatehouse.token('Auditor')}` },
    })
  ).json()) as { allOperations: { headers: { name: string; value: string }[] } };
  expect(saved.allOperations.headers).toEqual([{ action: 'Add', name: 'X-Client', value: 'gatehouse' }]);
});
