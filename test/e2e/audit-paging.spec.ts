import { expect, test } from '@playwright/test';
import { startGatehouse, type StartedGatehouse } from './gatehouse-fixture.js';
import { auditGrid, paginationLabel } from './support/audit-log.js';
import { generateEntries } from './support/audit-entries.js';
import { signInWithToken } from './support/console.js';

const IMPORTED = 700;
const newest = new Date(Date.now() - 60_000);
const entries = generateEntries(IMPORTED, newest);
let gatehouse: StartedGatehouse;

test.beforeAll(async () => {
  gatehouse = await startGatehouse({
    auditImports: [{ entries }],
    settings: { 'Flags:EnableServiceApiAuditLogRoute': 'true' },
  });
});
test.afterAll(() => gatehouse.stop());

test('pages through imported entries with every page size, 200 included', async ({ page }) => {
  await signInWithToken(page, gatehouse, 'Auditor', 'paging-auditor', '/audit-log?userName=alice');
  const alice = entries.filter((entry) => entry.userName === 'alice').length;
  await expect(paginationLabel(page)).toHaveText(`1–30 of ${alice}`);

  await page.getByRole('combobox', { name: 'Entries per page:' }).click();
  for (const size of ['30', '50', '100', '200'])
    await expect(page.getByRole('option', { name: size })).toBeVisible();
  await page.getByRole('option', { name: '200' }).click();
  await expect(page).toHaveURL(/PageSize=200/);
  await expect(paginationLabel(page)).toHaveText(`1–${Math.min(200, alice)} of ${alice}`);
  // The newest entry comes first; the grid renders the rows of one server page.
  await expect(auditGrid(page).getByRole('row').nth(1)).toContainText(entries[0]!.actionName);

  await page.getByRole('button', { name: 'Go to next page' }).click();
  await expect(page).toHaveURL(/PageNumber=2/);
  await expect(paginationLabel(page)).toHaveText(`201–${alice} of ${alice}`);

  // The page and its size are in the URL: a reload, or the same link opened elsewhere, shows the same page.
  await page.reload();
  await expect(paginationLabel(page)).toHaveText(`201–${alice} of ${alice}`);
  await page.goBack();
  await expect(paginationLabel(page)).toHaveText(`1–${Math.min(200, alice)} of ${alice}`);

  // A new filter starts again at page 1.
  await page.getByRole('button', { name: 'Go to next page' }).click();
  await expect(page).toHaveURL(/PageNumber=2/);
  const bob = entries.filter((entry) => entry.userName === 'bob').length;
  await page.getByRole('textbox', { name: 'User' }).fill('bob');
  await expect(paginationLabel(page)).toHaveText(`1–200 of ${bob}`);
  expect(page.url()).not.toContain('PageNumber');
});

test('a bookmarked time range and user filter show just those entries', async ({ page }) => {
  const from = entries[40]!.timestamp;
  const to = entries[9]!.timestamp; // exclusive
  const expected = entries.slice(10, 41).filter((entry) => entry.userName === 'bob');
  const query = new URLSearchParams({
    startDateTimeUtc: from,
    endDateTimeUtc: to,
    userName: 'bob',
    PageSize: '50',
  });
  await signInWithToken(page, gatehouse, 'Auditor', 'paging-auditor', `/audit-log?${query.toString()}`);
  await expect(paginationLabel(page)).toHaveText(`1–${expected.length} of ${expected.length}`);
  await expect(
    page.getByRole('group', { name: 'From (UTC)' }).getByRole('spinbutton', { name: 'Year' }),
  ).toHaveText(from.slice(0, 4));
  await expect(page.getByRole('textbox', { name: 'User' })).toHaveValue('bob');

  const first = expected[0]!;
  // Keyboard: focus the first row's action cell and press Enter.
  await auditGrid(page).getByRole('row').nth(1).getByRole('gridcell').nth(1).focus();
  await page.keyboard.press('Enter');
  const details = page.getByRole('dialog', { name: first.actionName });
  await expect(details).toContainText(first.resources[0]!.name);
  await expect(details).toContainText('EU agents (ag-eu)');
  // The id the entry had at the platform, which support staff quote back; the title keeps Gatehouse's own.
  await expect(details.getByTestId('audit-entry-source-id')).toHaveText(String(first.id));
  await expect(details.getByTestId('audit-entry-parameters')).toContainText(
    `"processId": "${first.parameters.processId as string}"`,
  );
});
