import { expect, test, type Page } from '@playwright/test';
import { startGatehouse, type StartedGatehouse } from './gatehouse-fixture.js';
import { generateEntries } from './support/audit-entries.js';
import { auditGrid, paginationLabel } from './support/audit-log.js';
import { signInWithToken } from './support/console.js';

// One entry every 20 minutes for 10 hours back from a minute ago, into a tenant of its own (so Gatehouse's own
// start-up entries stay out of the counts).
const entries = generateEntries(30, new Date(Date.now() - 60_000));
let gatehouse: StartedGatehouse;

test.beforeAll(async () => {
  gatehouse = await startGatehouse({
    auditImports: [{ entries, tenant: 'acme' }],
    settings: { 'Flags:EnableServiceApiAuditLogRoute': 'true' },
  });
});
test.afterAll(() => gatehouse.stop());

function timeline(page: Page) {
  return page.getByRole('figure', { name: 'Activity' });
}

test('quick ranges are chosen with the keyboard and kept in the URL', async ({ page }) => {
  await signInWithToken(page, gatehouse, 'Auditor', 'quick-range-auditor', '/audit-log?tenant=acme');
  await expect(paginationLabel(page)).toHaveText('1–30 of 30');
  const quickRange = page.getByRole('combobox', { name: 'Quick range' });
  await expect(quickRange).toContainText('Custom');

  // Keyboard only: open the select, go to the first choice, one down, choose.
  await quickRange.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('option', { name: 'Last 24 hours' })).toBeVisible();
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(quickRange).toContainText('Last hour');
  await expect(page).toHaveURL(/startDateTimeUtc=/);
  await expect(page).not.toHaveURL(/endDateTimeUtc=/);
  const start = Date.parse(new URL(page.url()).searchParams.get('startDateTimeUtc')!);
  expect(Math.abs(Date.now() - 3_600_000 - start)).toBeLessThan(120_000);
  const inLastHour = entries.filter((entry) => Date.parse(entry.timestamp) >= start).length;
  await expect(paginationLabel(page)).toHaveText(`1–${inLastHour} of ${inLastHour}`);

  // A reload keeps the range (the URL holds its start).
  await page.reload();
  await expect(paginationLabel(page)).toHaveText(`1–${inLastHour} of ${inLastHour}`);
  await expect(page.getByRole('combobox', { name: 'Quick range' })).toContainText('Last hour');
});

test('the activity timeline follows the filter, splits by user and narrows to a bucket', async ({ page }) => {
  await signInWithToken(page, gatehouse, 'Auditor', 'timeline-auditor', '/audit-log?tenant=acme');
  const figure = timeline(page);
  // No start: per day, from the first entry.
  await expect(figure.getByTestId('audit-timeline-summary')).toContainText('30 entries per day');
  await expect(figure.locator('.MuiBarChart-element').first()).toBeVisible();

  await page.getByRole('combobox', { name: 'Quick range' }).click();
  await page.getByRole('option', { name: 'Last 24 hours' }).click();
  await expect(figure.getByTestId('audit-timeline-summary')).toContainText('30 entries per hour');
  await expect(figure.getByTestId('audit-timeline-summary')).toContainText('Processes.Deploy');

  // The user filter applies to the timeline too.
  await page.getByRole('textbox', { name: 'User' }).fill('bob');
  const bob = entries.filter((entry) => entry.userName === 'bob').length;
  await expect(figure.getByTestId('audit-timeline-summary')).toContainText(`${bob} entries per hour`);
  await page.getByRole('textbox', { name: 'User' }).fill('');
  await expect(figure.getByTestId('audit-timeline-summary')).toContainText('30 entries per hour');

  await figure.getByRole('button', { name: 'By user' }).click();
  await expect(figure.getByRole('button', { name: 'By user' })).toHaveAttribute('aria-pressed', 'true');
  await expect(figure.getByTestId('audit-timeline-summary')).toContainText('alice 10, bob 10, carol 10');

  // The table view: the same numbers, each hour narrowable from the keyboard.
  await figure.getByRole('button', { name: 'Show as table' }).click();
  const table = figure.getByRole('table', { name: 'Audit activity per time bucket' });
  await expect(table.getByRole('columnheader', { name: 'alice' })).toBeVisible();
  const firstRow = table.getByRole('row').nth(1);
  const count = Number(await firstRow.getByRole('cell').first().textContent());
  expect(count).toBeGreaterThan(0);
  await firstRow.getByRole('button', { name: /^Show only / }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/endDateTimeUtc=/);
  await expect(paginationLabel(page)).toHaveText(`1–${count} of ${count}`);
  await expect(figure.getByTestId('audit-timeline-summary')).toContainText(
    `${count} ${count === 1 ? 'entry' : 'entries'} per hour`,
  );
  await expect(auditGrid(page).getByRole('row')).toHaveCount(count + 1);
});

test('clicking a bar narrows the range to its hour', async ({ page }) => {
  const start = new Date(Date.now() - 6 * 3_600_000).toISOString();
  await signInWithToken(
    page,
    gatehouse,
    'Auditor',
    'bar-auditor',
    `/audit-log?tenant=acme&startDateTimeUtc=${start}`,
  );
  const figure = timeline(page);
  await expect(figure.getByTestId('audit-timeline-summary')).toContainText('per hour');
  // A series with no entries in an hour draws a bar of no height there: click one that shows.
  await figure.locator('.MuiBarChart-element').filter({ visible: true }).first().click();
  await expect(page).toHaveURL(/endDateTimeUtc=/);
  const url = new URL(page.url());
  const from = Date.parse(url.searchParams.get('startDateTimeUtc')!);
  const to = Date.parse(url.searchParams.get('endDateTimeUtc')!);
  expect(to - from).toBeLessThanOrEqual(3_600_000);
  const inHour = entries.filter((entry) => {
    const time = Date.parse(entry.timestamp);
    return time >= from && time < to;
  }).length;
  expect(inHour).toBeGreaterThan(0);
  await expect(paginationLabel(page)).toHaveText(`1–${inHour} of ${inHour}`);
});

test('saves the current filter under a name, applies it later and deletes it', async ({ page }) => {
  await signInWithToken(
    page,
    gatehouse,
    'Auditor',
    'saved-filter-auditor',
    '/audit-log?tenant=acme&userName=carol',
  );
  const carol = entries.filter((entry) => entry.userName === 'carol').length;
  await expect(paginationLabel(page)).toHaveText(`1–${carol} of ${carol}`);

  await page.getByRole('button', { name: 'Saved filters' }).click();
  const dialog = page.getByRole('dialog', { name: 'Saved filters' });
  await expect(dialog.getByRole('status')).toHaveText('No saved filters yet.');
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Carol at Acme');
  await dialog.getByRole('button', { name: 'Save current filter' }).click();
  await expect(dialog.getByRole('button', { name: 'Apply Carol at Acme' })).toBeVisible();
  // The same name again is refused, with the reason.
  await dialog.getByRole('textbox', { name: 'Name' }).fill('carol at acme');
  await dialog.getByRole('button', { name: 'Save current filter' }).click();
  await expect(dialog.getByRole('alert')).toContainText('already have a saved filter');
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // Elsewhere, later (a fresh page): the filter is on the server.
  await page.goto(`${gatehouse.controlPanelUrl}/audit-log`);
  await page.getByRole('button', { name: 'Saved filters' }).click();
  await page.getByRole('button', { name: 'Apply Carol at Acme' }).click();
  await expect(page).toHaveURL(/tenant=acme/);
  await expect(page).toHaveURL(/userName=carol/);
  await expect(paginationLabel(page)).toHaveText(`1–${carol} of ${carol}`);

  await page.getByRole('button', { name: 'Saved filters' }).click();
  await page.getByRole('button', { name: 'Delete Carol at Acme' }).click();
  await expect(page.getByRole('dialog').getByRole('status')).toHaveText('No saved filters yet.');
});
