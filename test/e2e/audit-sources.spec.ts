import { expect, test } from '@playwright/test';
import { startGatehouse, type StartedGatehouse } from './gatehouse-fixture.js';
import { auditGrid, paginationLabel } from './support/audit-log.js';
import { signInWithToken } from './support/console.js';
import { AuditStandIn } from '../helpers/audit-stand-in.js';

const TOKEN = 'pasted-e2e-token-7';
let gatehouse: StartedGatehouse;
let standIn: AuditStandIn;

test.beforeAll(async () => {
  standIn = await new AuditStandIn({ token: TOKEN }).start();
  standIn.add(250, Date.now() - 300 * 60_000);
  gatehouse = await startGatehouse({ settings: { 'Flags:EnableServiceApiAuditLogRoute': 'true' } });
});
test.afterAll(async () => {
  await gatehouse.stop();
  await standIn.close();
});

test('adds a tenant source, syncs it with the Sync button, and shows its trail', async ({ page }) => {
  await signInWithToken(page, gatehouse, 'Administrator', 'desk-admin', '/audit-log');
  const panel = page.getByRole('region', { name: 'Sync sources' });
  await expect(panel).toContainText('No tenant to sync from yet');

  await panel.getByRole('button', { name: 'Add source' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a tenant to sync from' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill('acme');
  await dialog.getByRole('textbox', { name: 'Management API base URL' }).fill(standIn.url);
  await dialog.getByRole('radio', { name: 'Bearer token' }).check();
  await dialog.getByLabel('Bearer token', { exact: false }).last().fill(TOKEN);
  await dialog.getByRole('button', { name: 'Add' }).click();
  await expect(dialog).toBeHidden();

  const row = page.getByTestId('audit-source-acme');
  await expect(row).toContainText('Not synced yet.');
  await expect(row).toContainText('bearer token');
  expect(await page.content()).not.toContain(TOKEN);

  await row.getByRole('button', { name: 'Sync acme' }).click();
  await expect(row.getByRole('status')).toHaveText(/Synced: 250 added, 0 already present, 2 pages/);

  // The synced tenant is now in the switcher.
  await page.getByRole('combobox', { name: 'Tenant' }).click();
  await page.getByRole('option', { name: /^acme — 250 entries/ }).click();
  await expect(paginationLabel(page)).toHaveText('1–30 of 250');
  await expect(auditGrid(page).getByRole('row').nth(1)).toContainText(standIn.entries.at(-1)!.actionName);

  // Syncing again finds nothing new: the overlap window's entries are already present.
  await row.getByRole('button', { name: 'Sync acme' }).click();
  await expect(row.getByRole('status')).toHaveText(/Synced: 0 added, \d+ already present, 1 pages/);
});

test('edits a source in the add dialog: fields filled in, the stored token kept when left empty', async ({
  page,
}) => {
  await signInWithToken(page, gatehouse, 'Administrator', 'desk-admin', '/audit-log');
  const row = page.getByTestId('audit-source-acme');
  await row.getByRole('button', { name: 'Edit acme' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit source acme' });
  await expect(dialog.getByRole('textbox', { name: 'Name' })).toBeDisabled();
  await expect(dialog.getByRole('textbox', { name: 'Management API base URL' })).toHaveValue(standIn.url);
  await expect(dialog.getByRole('radio', { name: 'Bearer token' })).toBeChecked();
  const token = dialog.getByLabel('Bearer token', { exact: false }).last();
  await expect(token).toHaveValue('');
  await expect(dialog).toContainText('Leave empty to keep the stored one.');
  await dialog.getByRole('textbox', { name: 'Tenant' }).fill('acme-support');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText('acme → tenant acme-support');

  // Another tenant syncs from the beginning, with the token that was kept.
  await row.getByRole('button', { name: 'Sync acme' }).click();
  await expect(row.getByRole('status')).toHaveText(/Synced: 250 added, 0 already present, 2 pages/);
  expect(await page.content()).not.toContain(TOKEN);

  // Changing the way of getting a token needs its secret: the API's problem is shown in the dialog.
  await row.getByRole('button', { name: 'Edit acme' }).click();
  await dialog.getByRole('radio', { name: 'OAuth 2 client credentials' }).check();
  await dialog.getByRole('textbox', { name: 'Token endpoint' }).fill('https://login.example.com/acme/token');
  await dialog.getByRole('textbox', { name: 'Client id' }).fill('desk');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByRole('alert')).toContainText('Required when the way of getting a token changes.');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(row).toContainText('bearer token');
});

test('an Auditor sees the sources but is offered no action the API would refuse', async ({ page }) => {
  await signInWithToken(page, gatehouse, 'Auditor', 'desk-auditor', '/audit-log');
  const panel = page.getByRole('region', { name: 'Sync sources' });
  const row = page.getByTestId('audit-source-acme');
  await expect(row).toContainText('acme → tenant acme-support');
  await expect(panel).toContainText(
    'Your roles allow reading the sources, not adding, changing or syncing them.',
  );
  for (const name of ['Add source', 'Sync acme', 'Edit acme', 'Remove acme'])
    await expect(panel.getByRole('button', { name })).toHaveCount(0);
});
