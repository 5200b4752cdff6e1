import { expect, test } from '@playwright/test';
import { startGatehouse, type StartedGatehouse } from './gatehouse-fixture.js';
import { auditGrid, paginationLabel } from './support/audit-log.js';
import { generateEntries } from './support/audit-entries.js';
import { signInWithToken } from './support/console.js';

let gatehouse: StartedGatehouse;
// Entries 10, 20, 30 (newest first) name process-0 besides their own process: everything that touched process-0.
const entries = generateEntries(40, new Date(Date.now() - 60_000)).map((entry, index) =>
  index % 10 === 0 && index > 0
    ? {
        ...entry,
        resources: [...entry.resources, { type: 'Process', id: 'process-0', name: 'Order sync 0' }],
      }
    : entry,
);

test.beforeAll(async () => {
  gatehouse = await startGatehouse({
    auditImports: [{ entries, tenant: 'acme' }],
    settings: { 'Flags:EnableServiceApiAuditLogRoute': 'true' },
  });
});
test.afterAll(() => gatehouse.stop());

test("an entry's resource links to everything that touched it, and the filter field reads it", async ({
  page,
}) => {
  await signInWithToken(page, gatehouse, 'Auditor', 'resource-auditor', '/audit-log?tenant=acme');
  await expect(paginationLabel(page)).toHaveText('1–30 of 40');
  // The newest entry is process-0's own.
  await auditGrid(page).getByRole('row').nth(1).click();
  const drawer = page.getByRole('dialog');
  await expect(drawer.getByText('Process · process-0')).toBeVisible();
  await drawer.getByRole('link', { name: 'Everything that touched Process Order sync 0' }).click();

  await expect(page).toHaveURL(/resource=Process%3Aprocess-0/);
  await expect(page).toHaveURL(/tenant=acme/);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(paginationLabel(page)).toHaveText('1–4 of 4');
  await expect(page.getByRole('textbox', { name: 'Resource' })).toHaveValue('Process:process-0');

  // Typed: another resource, and a value that is not Type:id.
  await page.getByRole('textbox', { name: 'Resource' }).fill('Process:process-3');
  await expect(paginationLabel(page)).toHaveText('1–1 of 1');
  await page.getByRole('textbox', { name: 'Resource' }).fill('process-3');
  await expect(page.getByText('Use the form Type:id, e.g. Api:5d0c6f8e.')).toBeVisible();
  await expect(page.getByTestId('audit-filter-invalid')).toBeVisible();
});
