import { expect, test } from '@playwright/test';
import { startGatehouse, type StartedGatehouse } from './gatehouse-fixture.js';
import { auditGrid, paginationLabel } from './support/audit-log.js';
import { generateEntries } from './support/audit-entries.js';
import { signInWithToken } from './support/console.js';

const newest = new Date(Date.now() - 60_000);
const acme = generateEntries(12, newest).map((entry) => ({ ...entry, userName: `acme-${entry.userName}` }));
const globex = generateEntries(5, new Date(newest.getTime() - 5_000)).map((entry) => ({
  ...entry,
  userName: `globex-${entry.userName}`,
}));
let gatehouse: StartedGatehouse;

test.beforeAll(async () => {
  gatehouse = await startGatehouse({
    auditImports: [
      { entries: acme, tenant: 'acme' },
      { entries: globex, tenant: 'globex' },
    ],
    settings: { 'Flags:EnableServiceApiAuditLogRoute': 'true' },
  });
});
test.afterAll(() => gatehouse.stop());

test('switches between tenants, and shows all tenants with a tenant column', async ({ page }) => {
  await signInWithToken(page, gatehouse, 'Auditor', 'tenant-auditor', '/audit-log');
  const switcher = page.getByRole('combobox', { name: 'Tenant' });
  // Gatehouse's own trail by default: none of the imported users.
  await expect(switcher).toContainText('Gatehouse (this instance)');
  await expect(auditGrid(page).getByRole('row').nth(1)).toBeVisible();
  await expect(auditGrid(page)).not.toContainText('acme-');
  await expect(auditGrid(page).getByRole('columnheader', { name: 'Tenant' })).toHaveCount(0);

  await switcher.click();
  await page.getByRole('option', { name: /^acme — 12 entries/ }).click();
  await expect(page).toHaveURL(/tenant=acme/);
  await expect(paginationLabel(page)).toHaveText('1–12 of 12');
  await expect(auditGrid(page).getByRole('row').nth(1)).toContainText(acme[0]!.userName);

  // The filter applies within the tenant, and the tenant stays chosen.
  await page.getByRole('textbox', { name: 'User' }).fill('acme-bob');
  const bob = acme.filter((entry) => entry.userName === 'acme-bob').length;
  await expect(paginationLabel(page)).toHaveText(`1–${bob} of ${bob}`);
  await expect(page).toHaveURL(/tenant=acme/);
  await page.getByRole('textbox', { name: 'User' }).fill('');
  // The cleared filter applies after the typing pause; switching before it would carry acme-bob along.
  await expect(paginationLabel(page)).toHaveText('1–12 of 12');

  await switcher.click();
  await page.getByRole('option', { name: 'All tenants' }).click();
  await expect(page).toHaveURL(/tenant=\*|tenant=%2A/);
  await expect(auditGrid(page).getByRole('columnheader', { name: 'Tenant' })).toBeVisible();
  const first = auditGrid(page).getByRole('row').filter({ hasText: acme[0]!.userName }).first();
  await expect(first).toContainText('acme');
  const other = auditGrid(page).getByRole('row').filter({ hasText: globex[0]!.userName }).first();
  await expect(other).toContainText('globex');

  // The view is in the URL: a reload shows all tenants again.
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Tenant' })).toContainText('All tenants');
  await expect(auditGrid(page).getByRole('columnheader', { name: 'Tenant' })).toBeVisible();
});
