import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { startGatehouse, type StartedGatehouse } from './gatehouse-fixture.js';
import { signInWithToken } from './support/console.js';

let gatehouse: StartedGatehouse;
test.beforeAll(async () => {
  gatehouse = await startGatehouse();
});
test.afterAll(async () => {
  await gatehouse.stop();
});

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

async function tokenStatus(
  request: APIRequestContext,
  clientId: string,
  clientSecret: string,
): Promise<number> {
  const response = await request.post(`${gatehouse.controlPanelUrl}/oauth2/token`, {
    form: { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret },
  });
  return response.status();
}

async function readCredentials(page: Page) {
  const dialog = page.getByRole('dialog');
  return {
    clientId: (await dialog.getByRole('status', { name: 'Client ID' }).textContent()) ?? '',
    clientSecret: (await dialog.getByRole('status', { name: 'Client secret' }).textContent()) ?? '',
  };
}

test('an Operator creates a registration, sees its secret once, rotates it and deletes it', async ({
  page,
  request,
}) => {
  await signInWithToken(page, gatehouse, 'Operator', 'registrar', '/tenant-settings');
  const section = page.getByRole('region', { name: 'Application registrations' });
  await section.getByRole('button', { name: 'New registration' }).click();

  const form = page.getByRole('dialog', { name: 'New application registration' });
  await form.getByRole('button', { name: 'Create' }).click();
  await expect(form.getByText('Enter a name.')).toBeVisible();
  await form.getByRole('textbox', { name: 'Name' }).fill('Nightly export job');
  await form.getByRole('checkbox', { name: /^Auditor/ }).uncheck();
  await form.getByRole('checkbox', { name: /^Administrator/ }).check();
  await form.getByRole('button', { name: 'Create' }).click();

  const reveal = page.getByRole('dialog', { name: 'Registration “Nightly export job” created' });
  await expect(reveal).toBeVisible();
  await expect(reveal.getByText('Copy the client secret now')).toBeVisible();
  await expect(reveal).toContainText('shown only this once');
  const created = await readCredentials(page);
  expect(created.clientSecret.length).toBeGreaterThan(20);
  await reveal.getByRole('button', { name: 'Copy client secret' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(created.clientSecret);
  expect(await tokenStatus(request, created.clientId, created.clientSecret)).toBe(200);

  await reveal.getByRole('button', { name: 'Done' }).click();
  await expect(reveal).toBeHidden();
  const row = section.getByRole('row', { name: /Nightly export job/ });
  await expect(row).toContainText('Administrator');
  await expect(page.getByText(created.clientSecret)).toHaveCount(0);

  await row.getByRole('button', { name: 'Rotate the secret of Nightly export job' }).click();
  await page
    .getByRole('dialog', { name: 'Rotate the client secret?' })
    .getByRole('button', { name: 'Rotate secret' })
    .click();
  const rotatedDialog = page.getByRole('dialog', { name: 'New secret for “Nightly export job”' });
  await expect(rotatedDialog).toBeVisible();
  const rotated = await readCredentials(page);
  expect(rotated.clientId).toBe(created.clientId);
  expect(rotated.clientSecret).not.toBe(created.clientSecret);
  expect(await tokenStatus(request, created.clientId, created.clientSecret)).toBe(401);
  expect(await tokenStatus(request, rotated.clientId, rotated.clientSecret)).toBe(200);
  await rotatedDialog.getByRole('button', { name: 'Done' }).click();

  await row.getByRole('button', { name: 'Delete Nightly export job' }).click();
  await page
    .getByRole('dialog', { name: 'Delete the application registration?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(page.getByText('Registration “Nightly export job” deleted')).toBeVisible();
  await expect(row).toHaveCount(0);
  await expect(section.getByText('No application registrations yet.')).toBeVisible();
});

test('validation problems show inline in forms, failed actions in a snackbar', async ({ page, request }) => {
  await signInWithToken(page, gatehouse, 'Operator', 'registrar', '/tenant-settings');
  await page.getByRole('button', { name: 'Change Auth:TokenLifetimeMinutes' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change Auth:TokenLifetimeMinutes' });
  await dialog.getByRole('spinbutton', { name: 'Value' }).fill('5000');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Auth:TokenLifetimeMinutes must be from 1 to 1440.')).toBeVisible();
  await dialog.getByRole('spinbutton', { name: 'Value' }).fill('90');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.locator('[data-setting-key="Auth:TokenLifetimeMinutes"]')).toContainText(
    'Pending restart',
  );

  // Someone else deletes the registration while this page still lists it.
  const headers = { Authorization: `Bearer ${await gatehouse.token('Operator')}` };
  const created = await request.post(`${gatehouse.controlPanelUrl}/api/v1/app-registrations`, {
    headers,
    data: { name: 'Short-lived', roles: ['Auditor'] },
  });
  const { registration } = (await created.json()) as { registration: { id: string } };
  await page.reload();
  const row = page.getByRole('row', { name: /Short-lived/ });
  await expect(row).toBeVisible();
  await request.delete(`${gatehouse.controlPanelUrl}/api/v1/app-registrations/${registration.id}`, {
    headers,
  });

  await row.getByRole('button', { name: 'Delete Short-lived' }).click();
  await page
    .getByRole('dialog', { name: 'Delete the application registration?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  const snackbar = page.getByRole('alert').filter({ hasText: 'Deleting the registration failed: Not Found' });
  await expect(snackbar).toBeVisible();
  await expect(snackbar).toContainText(`No application registration has id ${registration.id}.`);
});
