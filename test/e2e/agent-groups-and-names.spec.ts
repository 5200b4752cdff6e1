import { expect, test } from '@playwright/test';
import { startGatehouse, type StartedGatehouse } from './gatehouse-fixture.js';
import { signInWithToken } from './support/console.js';

let gatehouse: StartedGatehouse;
test.beforeAll(async () => {
  gatehouse = await startGatehouse();
});
test.afterAll(async () => {
  await gatehouse.stop();
});

test('an Administrator creates an agent group in the console and sees where its gateway listens', async ({
  page,
}) => {
  await signInWithToken(page, gatehouse, 'Administrator', 'admin', '/environment-variables');
  await page.getByRole('button', { name: 'New agent group' }).click();
  const form = page.getByRole('dialog', { name: 'New agent group' });
  await expect(form.getByRole('textbox', { name: 'Agent group name' })).toBeFocused();
  await form.getByRole('textbox', { name: 'Agent group name' }).fill('Edge');
  await expect(form.getByRole('textbox', { name: 'Listener address' })).toHaveValue('127.0.0.1');
  await form.getByRole('button', { name: 'Create' }).click();
  await expect(form).toBeHidden();
  await expect(page.getByRole('alert').filter({ hasText: 'Agent group “Edge” added' })).toBeVisible();
  const row = page.locator('[data-agent-group-name="Edge"]');
  await expect(row).toContainText('Development');
  await expect(row).toContainText(/http:\/\/127\.0\.0\.1:\d+/);
  // The address shown is the gateway's: it answers there.
  const url = /http:\/\/127\.0\.0\.1:\d+/.exec((await row.textContent()) ?? '')![0];
  expect((await fetch(`${url}/nothing-here`)).status).toBe(404);

  // The same name again is said at the name field, in words; the same port at the port field.
  await page.getByRole('button', { name: 'New agent group' }).click();
  await form.getByRole('textbox', { name: 'Agent group name' }).fill('edge');
  await form.getByRole('button', { name: 'Create' }).click();
  await expect(form.getByRole('textbox', { name: 'Agent group name' })).toHaveAccessibleDescription(
    "An agent group named 'Edge' already exists. Choose another name.",
  );
  await expect(form.getByText('Conflict')).toHaveCount(0);
  await expect(form.getByRole('alert')).toHaveCount(0);
  const port = new URL(gatehouse.gatewayUrl).port;
  await form.getByRole('textbox', { name: 'Agent group name' }).fill('Second edge');
  await form.getByRole('textbox', { name: 'Listener port' }).fill(port);
  await form.getByRole('button', { name: 'Create' }).click();
  await expect(form.getByRole('textbox', { name: 'Listener port' })).toHaveAccessibleDescription(
    /already listens on 127\.0\.0\.1:\d+\. Choose another port, or 0 for a free one\./,
  );
  await form.getByRole('button', { name: 'Cancel' }).click();

  await row.getByRole('button', { name: 'Delete agent group Edge' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(row).toHaveCount(0);
});

test('an Auditor sees the agent groups without the controls to change them', async ({ page }) => {
  await signInWithToken(page, gatehouse, 'Auditor', 'auditor', '/environment-variables');
  await expect(page.locator('[data-agent-group-name="Default"]')).toContainText(gatehouse.gatewayUrl);
  await expect(page.getByRole('button', { name: 'New agent group' })).toHaveCount(0);
});

test('duplicate environment and API key names are said at the name field, not as "Conflict"', async ({
  page,
}) => {
  await signInWithToken(page, gatehouse, 'Operator', 'ops', '/environment-variables');
  await page.getByRole('button', { name: 'New environment' }).click();
  const environmentForm = page.getByRole('dialog', { name: 'New environment' });
  await environmentForm.getByRole('textbox', { name: 'Environment name' }).fill('development');
  await environmentForm.getByRole('button', { name: 'Add' }).click();
  await expect(
    environmentForm.getByRole('textbox', { name: 'Environment name' }),
  ).toHaveAccessibleDescription("An environment named 'Development' already exists. Choose another name.");
  await expect(environmentForm.getByRole('alert')).toHaveCount(0);
  await environmentForm.getByRole('button', { name: 'Cancel' }).click();

  await page.goto(`${gatehouse.controlPanelUrl}/api-policies`);
  for (const attempt of [1, 2]) {
    await page.getByRole('button', { name: 'New API key' }).click();
    const keyForm = page.getByRole('dialog', { name: 'New API key' });
    await keyForm.getByRole('textbox', { name: 'Key name' }).fill('Web shop');
    await keyForm.getByRole('button', { name: 'Create key' }).click();
    if (attempt === 1) {
      await expect(page.getByText('Copy the key now')).toBeVisible();
      await expect(page.getByRole('dialog')).toContainText(/gatehouse_[A-Za-z0-9_-]{43}/);
      await page.getByRole('button', { name: 'Done' }).click();
    } else {
      await expect(keyForm.getByRole('textbox', { name: 'Key name' })).toHaveAccessibleDescription(
        "An API key named 'Web shop' already exists. Choose another name.",
      );
      await expect(keyForm.getByRole('alert')).toHaveCount(0);
    }
  }
});
