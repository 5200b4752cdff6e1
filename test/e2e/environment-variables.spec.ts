import { expect, test, type Page } from '@playwright/test';
import { startGatehouse, type StartedGatehouse } from './gatehouse-fixture.js';
import { saveScreenshot } from './support/accessibility.js';
import { signInWithToken } from './support/console.js';
import { startEchoUpstream, type EchoUpstream } from './support/echo-upstream.js';
import { managementApi, type ManagementApi } from './support/management-api.js';

const FIRST_SECRET = 'first-Secret-4711';
const SECOND_SECRET = 'second-Secret-0815';

let gatehouse: StartedGatehouse;
let upstream: EchoUpstream;
let api: ManagementApi;

test.beforeAll(async () => {
  [gatehouse, upstream] = await Promise.all([startGatehouse(), startEchoUpstream()]);
  api = await managementApi(gatehouse);
});
test.afterAll(async () => {
  await Promise.all([gatehouse.stop(), upstream.close()]);
});

function variableRow(page: Page, name: string) {
  return page.locator(`[data-variable-name="${name}"]`);
}

/** Nothing on the page, visible or not, holds a secret's text. */
async function expectNoSecretOnPage(page: Page): Promise<void> {
  for (const secret of [FIRST_SECRET, SECOND_SECRET]) {
    expect(await page.content(), 'a secret in the page').not.toContain(secret);
  }
}

/** The backend token the gateway forwards, read by the upstream from a request through the passthrough. */
async function forwardedToken(): Promise<string | undefined> {
  const response = await fetch(`${gatehouse.gatewayUrl}/orders-api/v1/orders`);
  expect(response.status).toBe(200);
  await response.arrayBuffer();
  return upstream.received.at(-1)?.headers['x-backend-token'] as string | undefined;
}

async function createBackendVariable(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'New variable' }).click();
  const form = page.getByRole('dialog', { name: 'New environment variable' });
  await form.getByRole('textbox', { name: 'Variable name' }).fill('backend');
  await form.getByRole('textbox', { name: 'Description' }).fill('The order service behind the Orders API');
  await form.getByRole('textbox', { name: 'Member 1 name' }).fill('url');
  const members: [string, string][] = [
    ['token', 'Secret'],
    ['retries', 'Number'],
    ['verbose', 'Boolean'],
  ];
  for (const [index, [name, type]] of members.entries()) {
    await form.getByRole('button', { name: 'Add member' }).click();
    await form.getByRole('textbox', { name: `Member ${index + 2} name` }).fill(name);
    await form.getByRole('combobox', { name: `Member ${index + 2} type` }).click();
    await page.getByRole('option', { name: type }).click();
  }
  await form.getByRole('button', { name: 'Create' }).click();
  await expect(form).toBeHidden();
}

test('a group variable with a secret member: values for Development, masked everywhere, replaced, deleted', async ({
  page,
}) => {
  await signInWithToken(page, gatehouse, 'Operator', 'variables-admin', '/environment-variables');
  await createBackendVariable(page);

  // A new variable goes straight to its values, in the environment the table shows.
  const values = page.getByRole('dialog', { name: 'Values of backend' });
  await expect(values.getByRole('combobox', { name: 'Environment' })).toHaveText('Development');
  await values.getByRole('textbox', { name: 'url' }).fill(upstream.url);
  await values.getByLabel('token', { exact: true }).fill(FIRST_SECRET);
  await values.getByRole('spinbutton', { name: 'retries' }).fill('3');
  await values.getByLabel('verbose').check();
  await saveScreenshot(page, 'environment-variables-values-new');
  await values.getByRole('button', { name: 'Save values' }).click();
  await expect(page.getByText('Values of “backend” saved for Development')).toBeVisible();
  await expect(values).toBeHidden();

  const row = variableRow(page, 'backend');
  await expect(row.locator('[data-member="url"]')).toHaveText(upstream.url);
  await expect(row.locator('[data-member="token"]')).toHaveText('********');
  await expect(row.locator('[data-member="retries"]')).toHaveText('3');
  await expect(row.locator('[data-member="verbose"]')).toHaveText('true');
  await expect(row).toContainText('token: Secret');
  await expect(row.getByText('Development')).toBeVisible();
  await expectNoSecretOnPage(page);

  await page.reload();
  await expect(variableRow(page, 'backend').locator('[data-member="token"]')).toHaveText('********');
  await expectNoSecretOnPage(page);

  // A passthrough forwards the token, so the test can see which value the gateway really uses.
  const orders = await api.importOrdersApi();
  await api.call('POST', `/api/v1/apis/${orders.id}/passthrough`, {
    allOperations: {
      target: { section1: '{{#env.backend.url}}', section2: 'echo' },
      headers: [{ action: 'Overwrite', name: 'X-Backend-Token', value: '{{#env.backend.token}}' }],
    },
    policy: { grants: [{ type: 'public' }] },
  });
  expect(await forwardedToken()).toBe(FIRST_SECRET);

  // The secret is masked and read-only until "Replace value" clears it; the keyboard is enough.
  await variableRow(page, 'backend').getByRole('button', { name: 'Edit the values of backend' }).click();
  const token = values.getByLabel('token', { exact: true });
  await expect(token).toHaveValue('********');
  await expect(token).toHaveAttribute('readonly', '');
  await saveScreenshot(page, 'environment-variables-values-masked');
  await values.getByRole('button', { name: 'Replace value of token' }).focus();
  await page.keyboard.press('Enter');
  await expect(token).toBeFocused();
  await expect(token).toHaveValue('');
  await expect(token).toHaveAttribute('type', 'password');
  await page.keyboard.type(SECOND_SECRET);
  await values.getByRole('button', { name: 'Save values' }).click();
  await expect(values).toBeHidden();
  await expect(variableRow(page, 'backend').locator('[data-member="token"]')).toHaveText('********');
  await expectNoSecretOnPage(page);
  expect(await forwardedToken()).toBe(SECOND_SECRET);

  // Saving other members sends the mask for the secret, which keeps the stored value.
  await variableRow(page, 'backend').getByRole('button', { name: 'Edit the values of backend' }).click();
  await values.getByRole('spinbutton', { name: 'retries' }).fill('5');
  await values.getByRole('button', { name: 'Save values' }).click();
  await expect(variableRow(page, 'backend').locator('[data-member="retries"]')).toHaveText('5');
  expect(await forwardedToken()).toBe(SECOND_SECRET);

  // In use by the passthrough: the refusal is shown in the dialog, naming the API.
  await variableRow(page, 'backend').getByRole('button', { name: 'Delete backend' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete the variable backend?' });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  const refusal = confirm.getByTestId('delete-failure');
  await expect(refusal).toContainText('Deleting the variable was refused: Conflict');
  await expect(refusal).toContainText('Orders API');
  await expect(confirm.getByRole('button', { name: 'Close' })).toBeFocused();
  await saveScreenshot(page, 'environment-variables-delete-refused');
  await confirm.getByRole('button', { name: 'Close' }).click();

  await api.call('DELETE', `/api/v1/apis/${orders.id}/passthrough`);
  await variableRow(page, 'backend').getByRole('button', { name: 'Delete backend' }).click();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Variable “backend” deleted')).toBeVisible();
  await expect(variableRow(page, 'backend')).toHaveCount(0);
  await expect(page.getByText('No environment variables yet.')).toBeVisible();
});

test('a single value, renamed; environments added, renamed and deleted; agent groups listed', async ({
  page,
}) => {
  await signInWithToken(page, gatehouse, 'Operator', 'environments-admin', '/environment-variables');
  await expect(
    page.getByRole('table', { name: 'Agent groups' }).getByRole('row', { name: /Default/ }),
  ).toContainText('Cross-platform');

  const environments = page.getByRole('region', { name: 'Environments' });
  await environments.getByRole('button', { name: 'New environment' }).click();
  const form = page.getByRole('dialog', { name: 'New environment' });
  await form.getByRole('textbox', { name: 'Environment name' }).fill('Production');
  await form.getByRole('button', { name: 'Add' }).click();
  await expect(environments.getByRole('row', { name: /Production/ })).toBeVisible();

  await page.getByRole('button', { name: 'New variable' }).click();
  const create = page.getByRole('dialog', { name: 'New environment variable' });
  await create.getByRole('textbox', { name: 'Variable name' }).fill('timeout');
  await create.getByRole('radio', { name: 'Single value' }).check();
  await create.getByRole('combobox', { name: 'Type' }).click();
  await page.getByRole('option', { name: 'Number' }).click();
  await create.getByRole('button', { name: 'Create' }).click();
  const values = page.getByRole('dialog', { name: 'Values of timeout' });
  await values.getByRole('combobox', { name: 'Environment' }).click();
  await page.getByRole('option', { name: 'Production' }).click();
  await values.getByRole('spinbutton', { name: 'Value' }).fill('30');
  await values.getByRole('button', { name: 'Save values' }).click();
  await expect(page.getByText('Values of “timeout” saved for Production')).toBeVisible();
  await expect(variableRow(page, 'timeout')).toContainText('Production');

  await variableRow(page, 'timeout').getByRole('button', { name: 'Edit timeout' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit timeout' });
  await edit.getByRole('textbox', { name: 'Variable name' }).fill('timeout_seconds');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(variableRow(page, 'timeout_seconds')).toBeVisible();

  await page.getByRole('combobox', { name: 'Show values of' }).click();
  await page.getByRole('option', { name: 'Production' }).click();
  await expect(page).toHaveURL(/environment=/);
  await expect(variableRow(page, 'timeout_seconds')).toContainText('30');

  await environments.getByRole('button', { name: 'Rename Production' }).click();
  const rename = page.getByRole('dialog', { name: 'Rename Production' });
  await rename.getByRole('textbox', { name: 'Environment name' }).fill('Prod');
  await rename.getByRole('button', { name: 'Save' }).click();
  await expect(environments.getByRole('row', { name: /Prod/ })).toBeVisible();

  // Development runs the Default agent group: refused, and the dialog says why.
  await environments.getByRole('button', { name: 'Delete environment Development' }).click();
  const refuse = page.getByRole('dialog', { name: 'Delete the environment Development?' });
  await refuse.getByRole('button', { name: 'Delete' }).click();
  await expect(refuse.getByTestId('delete-failure')).toContainText('Default');
  await refuse.getByRole('button', { name: 'Close' }).click();

  await environments.getByRole('button', { name: 'Delete environment Prod' }).click();
  await page
    .getByRole('dialog', { name: 'Delete the environment Prod?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(page.getByText('Environment “Prod” deleted')).toBeVisible();
  await expect(environments.getByRole('row', { name: /Prod/ })).toHaveCount(0);
  // Its values went with it.
  await expect(variableRow(page, 'timeout_seconds')).toContainText('None yet');
  await saveScreenshot(page, 'environment-variables');
});
