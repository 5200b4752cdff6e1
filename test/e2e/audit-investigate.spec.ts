import { expect, test } from '@playwright/test';
import { startGatehouse, type StartedGatehouse } from './gatehouse-fixture.js';
import { auditGrid, paginationLabel } from './support/audit-log.js';
import { generateEntries } from './support/audit-entries.js';
import { signInWithToken } from './support/console.js';

let gatehouse: StartedGatehouse;
// Newest first. Entries 0 and 1 name the same process: 0 changed its version and dropped dryRun.
const entries = generateEntries(12, new Date(Date.now() - 60_000));
entries[1] = {
  ...entries[1]!,
  resources: entries[0]!.resources,
  parameters: {
    processId: 'process-0',
    version: 2,
    options: { dryRun: true },
    note: 'Invoice-Export nightly',
  },
};
entries[0] = { ...entries[0]!, parameters: { processId: 'process-0', version: 3, options: {} } };

test.beforeAll(async () => {
  gatehouse = await startGatehouse({
    auditImports: [{ entries, tenant: 'acme' }],
    settings: { 'Flags:EnableServiceApiAuditLogRoute': 'true' },
  });
});
test.afterAll(() => gatehouse.stop());

test('the search box finds words inside parameters', async ({ page }) => {
  await signInWithToken(page, gatehouse, 'Auditor', 'search-auditor', '/audit-log?tenant=acme');
  await expect(paginationLabel(page)).toHaveText('1–12 of 12');
  await page.getByRole('searchbox', { name: 'Search parameters' }).fill('invoice export');
  await expect(page).toHaveURL(/search=invoice\+export/);
  await expect(paginationLabel(page)).toHaveText('1–1 of 1');
  await page.getByRole('searchbox', { name: 'Search parameters' }).fill('process-7');
  await expect(paginationLabel(page)).toHaveText('1–1 of 1');
  await page.getByRole('searchbox', { name: 'Search parameters' }).fill('***');
  await expect(page.getByText('Search for at least one letter or digit.')).toBeVisible();
});

test("an entry's drawer shows what changed against the previous entry of its resource", async ({ page }) => {
  await signInWithToken(page, gatehouse, 'Auditor', 'diff-auditor', '/audit-log?tenant=acme');
  await auditGrid(page).getByRole('row').nth(1).click();
  const changes = page.getByTestId('audit-entry-changes');
  await expect(changes).toContainText('the previous one of Process Order sync 0');
  const table = changes.getByRole('table', { name: 'Changed parameters' });
  await expect(table.getByRole('row')).toHaveCount(4);
  await expect(table.getByRole('row', { name: /\/note Removed "Invoice-Export nightly"/ })).toBeVisible();
  await expect(table.getByRole('row', { name: /\/options\/dryRun Removed true/ })).toBeVisible();
  await expect(table.getByRole('row', { name: /\/version Changed 2 3/ })).toBeVisible();
  await page.getByRole('button', { name: 'Close the details' }).click();

  // The oldest entry of a resource has nothing before it.
  await auditGrid(page).getByRole('row').last().click();
  await expect(page.getByTestId('audit-entry-changes')).toContainText('The first entry of Process');
});
