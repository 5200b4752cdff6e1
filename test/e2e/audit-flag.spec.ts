import { readFile } from 'node:fs/promises';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { startGatehouse, type StartedGatehouse } from './gatehouse-fixture.js';
import { openScreen, signInWithLink } from './support/console.js';
import { auditGrid, chooseAction, paginationLabel, typeUtcDateTime } from './support/audit-log.js';

// One story, in order: the flag starts off, an Operator turns it on and restarts, then reads the trail.
test.describe.configure({ mode: 'serial' });

let gatehouse: StartedGatehouse;
let context: BrowserContext;
let page: Page;
let userName: string;

test.beforeAll(async ({ browser }) => {
  gatehouse = await startGatehouse();
  context = await browser.newContext();
  page = await context.newPage();
  await signInWithLink(page, gatehouse);
  userName = (await page.getByTestId('signed-in-user').textContent()) ?? '';
});
test.afterAll(async () => {
  await context.close();
  await gatehouse.stop();
});

test('with the flag off, the audit log explains what the flag is and who can turn it on', async () => {
  await openScreen(page, 'Audit log');
  const notice = page.getByRole('region', { name: 'The audit log endpoint is turned off' });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('Flags:EnableServiceApiAuditLogRoute');
  await expect(notice).toContainText('off by default');
  await expect(notice).toContainText('an Operator, in Tenant settings');
  await expect(notice).toContainText('restart of the Control Panel');
  await expect(page.getByRole('grid')).toHaveCount(0);
  await notice.getByRole('link', { name: 'Turn it on in Tenant settings' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Tenant settings' })).toBeVisible();
});

test('an Operator turns the flag on, restarts the Control Panel and sees it on', async () => {
  const state = page.getByTestId('audit-flag-state');
  await expect(state).toHaveText('Off');
  const startedAt = await page.getByTestId('control-panel-started-at').textContent();

  await page.getByRole('switch', { name: 'Enable the audit log endpoint' }).click();
  await expect(state).toHaveText('On after restart');
  await expect(
    page.getByText(/Some settings changed since the Control Panel of this instance \(.+\) started\./),
  ).toBeVisible();

  await page.getByRole('button', { name: 'Restart Control Panel' }).click();
  await expect(page.getByRole('progressbar', { name: 'Restarting the Control Panel' })).toBeVisible();
  await expect(state).toHaveText('On', { timeout: 30_000 });
  await expect(page.getByText('The Control Panel restarted')).toBeVisible();
  await expect(page.getByTestId('control-panel-started-at')).not.toHaveText(startedAt ?? '');

  const swagger = page.getByRole('link', { name: /Open Swagger UI/ });
  await expect(swagger).toHaveAttribute('href', '/swagger/index.html#/AuditLog');
  const swaggerPage = await context.newPage();
  // The console's link opens the AuditLog tag: every tag is listed, that one with its operations.
  await swaggerPage.goto(`${gatehouse.controlPanelUrl}/swagger/index.html#/AuditLog`);
  await expect(swaggerPage.locator('#operations-tag-AuditLog')).toBeVisible();
  await expect(swaggerPage.locator('#operations-tag-Apis')).toBeVisible();
  await expect(swaggerPage.locator('#operations-AuditLog-listAuditLogEntries')).toBeVisible();
  await swaggerPage.close();
});

test('the audit log lists the change and the restart, and filters by action, user and time', async () => {
  await openScreen(page, 'Audit log');
  const grid = auditGrid(page);
  await expect(grid.getByRole('gridcell', { name: 'TenantSettings.Modify' })).toBeVisible();
  await expect(grid.getByRole('gridcell', { name: 'ControlPanel.Restart' })).toBeVisible();

  await chooseAction(page, 'TenantSettings.Mod', 'TenantSettings.Modify');
  await expect(page).toHaveURL(/actionName=TenantSettings.Modify/);
  await expect(paginationLabel(page)).toHaveText('1–1 of 1');
  await expect(grid.getByRole('gridcell', { name: 'ControlPanel.Restart' })).toHaveCount(0);

  const user = page.getByRole('textbox', { name: 'User' });
  await user.fill(userName.toUpperCase());
  await expect(page).toHaveURL(new RegExp(`userName=${userName.toUpperCase()}`));
  await expect(paginationLabel(page)).toHaveText('1–1 of 1');
  await user.fill('somebody-else');
  await expect(page.getByText('No audit entries match the filter.')).toBeVisible();
  await user.fill('');

  const inOneHour = new Date(Date.now() + 3_600_000);
  await typeUtcDateTime(page, 'From (UTC)', inOneHour);
  await expect(page).toHaveURL(/startDateTimeUtc=/);
  await expect(page.getByText('No audit entries match the filter.')).toBeVisible();
  await typeUtcDateTime(page, 'From (UTC)', new Date(Date.now() - 3_600_000));
  await typeUtcDateTime(page, 'To (UTC)', inOneHour);
  await expect(page).toHaveURL(/endDateTimeUtc=/);
  await expect(paginationLabel(page)).toHaveText('1–1 of 1');

  // The view is in the URL: a reload (or a shared link) shows the same filter and result.
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Action' })).toHaveValue('TenantSettings.Modify');
  await expect(paginationLabel(page)).toHaveText('1–1 of 1');
});

test('the detail panel shows the parameters, the resources and the agent group', async () => {
  await auditGrid(page).getByRole('gridcell', { name: 'TenantSettings.Modify' }).click();
  const details = page.getByRole('dialog', { name: 'TenantSettings.Modify' });
  await expect(details).toBeVisible();
  const parameters = details.getByTestId('audit-entry-parameters');
  const json = JSON.parse((await parameters.textContent()) ?? '{}') as Record<string, unknown>;
  expect(json).toMatchObject({ key: 'Flags:EnableServiceApiAuditLogRoute', value: true });
  await expect(parameters).toHaveCSS('font-family', /mono/i);
  await expect(details.getByText('TenantSetting · Flags:EnableServiceApiAuditLogRoute')).toBeVisible();
  await expect(details.getByText('None recorded').first()).toBeVisible();
  await expect(details.getByRole('button', { name: 'Copy parameters' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(details).toBeHidden();
});

test('export downloads NDJSON and CSV of the current filter', async () => {
  const exportAs = async (format: string) => {
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const download = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: new RegExp(`Export as ${format}`) }).click();
    const file = await download;
    return { name: file.suggestedFilename(), text: await readFile(await file.path(), 'utf8') };
  };

  const ndjson = await exportAs('NDJSON');
  expect(ndjson.name).toMatch(/^audit-log-.*\.ndjson$/);
  const entries = ndjson.text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { actionName: string });
  expect(entries.map((entry) => entry.actionName)).toEqual(['TenantSettings.Modify']);

  const csv = await exportAs('CSV');
  expect(csv.name).toMatch(/\.csv$/);
  const lines = csv.text.trim().split(/\r?\n/);
  expect(lines[0]).toMatch(/^id,timestamp,actionName,userName,category,statusCode,/);
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain('TenantSettings.Modify');
});
