import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startGatehouse, type StartedGatehouse } from './gatehouse-fixture.js';
import { expectNoSeriousViolations, saveScreenshot } from './support/accessibility.js';
import { generateEntries, writeNdjson } from './support/audit-entries.js';
import { auditGrid } from './support/audit-log.js';
import { signInWithToken } from './support/console.js';
import { seedSampleConfiguration, type SampleConfiguration } from './support/sample-configuration.js';

// Two servers: one as installed (audit log flag off), one with the flag on and a platform export imported.
let flagOff: StartedGatehouse;
let flagOn: StartedGatehouse;
let importDir: string;
// A third server holds a sample configuration, so the audit log above keeps showing the imported entries first.
let configured: StartedGatehouse;
let sample: SampleConfiguration;

test.beforeAll(async () => {
  importDir = await mkdtemp(join(tmpdir(), 'gatehouse-a11y-'));
  const file = await writeNdjson(
    importDir,
    'entries.ndjson',
    generateEntries(120, new Date(Date.now() - 60_000)),
  );
  [flagOff, flagOn, configured] = await Promise.all([
    startGatehouse(),
    startGatehouse({ auditImports: [file], settings: { 'Flags:EnableServiceApiAuditLogRoute': 'true' } }),
    startGatehouse(),
  ]);
  sample = await seedSampleConfiguration(configured);
});
test.afterAll(async () => {
  await Promise.all([flagOff.stop(), flagOn.stop(), configured.stop(), sample.stop()]);
  await rm(importDir, { recursive: true, force: true });
});

/** The window sizes every screen is checked and captured at: a laptop's and the smallest supported. */
const VIEWPORTS = [
  { width: 1440, height: 900 },
  { width: 1024, height: 768 },
] as const;

async function check(page: Page, name: string, theme: string): Promise<void> {
  const { width, height } = page.viewportSize()!;
  await test.step(name, async () => {
    await expectNoSeriousViolations(page, `${name} (${theme}, ${width}×${height})`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${name} scrolls sideways at ${width} px`).toBeLessThanOrEqual(0);
    await saveScreenshot(page, `${name}-${theme}-${width}x${height}`);
  });
}

async function visit(page: Page, gatehouse: StartedGatehouse, path: string, heading: string): Promise<void> {
  await page.goto(`${gatehouse.controlPanelUrl}${path}`);
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
}

for (const viewport of VIEWPORTS)
  for (const theme of ['light', 'dark'] as const) {
    const size = `${viewport.width}x${viewport.height}`;
    test.describe(`${theme} theme, ${size}`, () => {
      test.use({ colorScheme: theme, viewport });

      test(`the audit activity chart, its table view and the saved filters pass axe (${theme}, ${size})`, async ({
        page,
      }) => {
        await signInWithToken(page, flagOn, 'Auditor', 'activity-auditor');
        await visit(page, flagOn, '/audit-log', 'Audit log');
        await expect(page.getByTestId('audit-timeline-summary')).toContainText('entries per day');
        await check(page, 'audit-log-activity-chart', theme);
        await page.getByRole('button', { name: 'Show as table' }).click();
        await expect(page.getByRole('table', { name: 'Audit activity per time bucket' })).toBeVisible();
        await check(page, 'audit-log-activity-table', theme);
        await page.getByRole('button', { name: 'Saved filters' }).click();
        await expect(page.getByRole('dialog', { name: 'Saved filters' }).getByRole('status')).toBeVisible();
        await check(page, 'audit-log-saved-filters', theme);
      });

      test(`every screen passes axe and is captured (${theme}, ${size})`, async ({ page }) => {
        // Thirteen screens and dialogs, each checked by axe: it took 58-66 s of the default minute at load 20-29.
        test.slow();
        await page.goto(flagOn.controlPanelUrl);
        await expect(page.getByRole('heading', { name: 'Sign in to Gatehouse' })).toBeVisible();
        await check(page, 'sign-in', theme);

        await signInWithToken(page, flagOn, 'Operator', 'screenshot-operator');
        await visit(page, flagOn, '/apis', 'APIs');
        await expect(page.getByTestId('apis-empty-state')).toBeVisible();
        await check(page, 'apis-empty', theme);

        await visit(page, flagOn, '/audit-log', 'Audit log');
        await expect(
          auditGrid(page).getByRole('gridcell', { name: 'Processes.Deploy' }).first(),
        ).toBeVisible();
        await check(page, 'audit-log', theme);
        await auditGrid(page).getByRole('gridcell', { name: 'Processes.Deploy' }).first().click();
        await expect(page.getByTestId('audit-entry-parameters')).toBeVisible();
        await check(page, 'audit-log-entry-details', theme);
        await page.keyboard.press('Escape');

        await visit(page, flagOn, '/tenant-settings', 'Tenant settings');
        await expect(page.getByTestId('audit-flag-state')).toHaveText('On');
        await check(page, 'tenant-settings', theme);
        await page.getByRole('button', { name: 'New registration' }).click();
        await check(page, 'app-registration-create', theme);
        await page.getByRole('textbox', { name: 'Name' }).fill(`Screenshot ${theme} ${size}`);
        await page.getByRole('button', { name: 'Create' }).click();
        await expect(page.getByText('Copy the client secret now')).toBeVisible();
        await check(page, 'app-registration-secret', theme);
        await page.getByRole('button', { name: 'Done' }).click();

        await visit(
          page,
          flagOn,
          '/audit-log?startDateTimeUtc=2026-03-02&endDateTimeUtc=2026-03-01',
          'Audit log',
        );
        await expect(page.getByTestId('audit-filter-invalid')).toBeVisible();
        await check(page, 'audit-log-invalid-range', theme);

        await page.locator('body').press('?');
        await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
        await check(page, 'keyboard-shortcuts', theme);
        await page.keyboard.press('Escape');

        await visit(page, flagOn, '/no-such-page', 'Page not found');
        await check(page, 'not-found', theme);
      });

      test(`the APIs, environment variables, API policies and API monitoring screens pass axe (${theme}, ${size})`, async ({
        page,
      }) => {
        // Many screens and dialogs, each checked by axe: more than the default minute on a busy machine.
        test.slow();
        await signInWithToken(page, configured, 'Operator', 'screenshot-operator', '/environment-variables');
        await expect(page.locator('[data-variable-name="backend"]')).toContainText('********');
        await check(page, 'environment-variables', theme);
        await page.getByRole('button', { name: 'Edit the values of backend' }).click();
        await check(page, 'environment-variable-values', theme);
        await page.getByRole('button', { name: 'Replace value of token' }).click();
        await check(page, 'environment-variable-secret-replace', theme);
        await page.getByRole('button', { name: 'Cancel' }).click();
        await page.getByRole('button', { name: 'New agent group' }).click();
        await check(page, 'agent-group-create', theme);
        await page
          .getByRole('dialog', { name: 'New agent group' })
          .getByRole('button', { name: 'Cancel' })
          .click();

        await visit(page, configured, '/apis', 'APIs');
        await expect(page.locator('[data-api-name="Orders API"]')).toContainText('Deployed');
        await check(page, 'apis-list', theme);
        await page.getByRole('button', { name: 'Import API' }).click();
        await page.getByTestId('document-file-input').setInputFiles({
          name: 'package.yaml',
          mimeType: 'application/yaml',
          buffer: Buffer.from('name: things\nversion: 1.0.0\n'),
        });
        await page.getByRole('button', { name: 'Import', exact: true }).click();
        await expect(page.getByTestId('issue-pointer')).toHaveText('/openapi');
        await expect(page.getByRole('button', { name: 'Import', exact: true })).toBeEnabled();
        await check(page, 'api-import-error', theme);
        await page.getByTestId('document-file-input').setInputFiles({
          name: `rough-${theme}-${size}.yaml`,
          mimeType: 'application/yaml',
          buffer: Buffer.from(
            `openapi: 3.0.3\ninfo:\n  version: "1"\nservers: [{ url: /rough-${theme}-${size} }]\npaths:\n  /a/{id}: { get: { responses: { "200": {} } } }\n  /a/{x}: { get: { responses: { "200": {} } } }\n`,
          ),
        });
        await page.getByRole('button', { name: 'Import', exact: true }).click();
        await expect(page.getByTestId('skipped-operation')).toContainText('GET /a/{x}');
        await check(page, 'api-import-warnings', theme);
        await page.getByRole('button', { name: 'Done' }).click();
        await page.getByRole('link', { name: 'Orders API', exact: true }).click();
        await expect(page.getByRole('table', { name: 'Operations' }).locator('tbody tr')).toHaveCount(7);
        await check(page, 'api-details', theme);

        await visit(page, configured, '/api-policies', 'API policies');
        await expect(page.locator('[data-policy-name="Partner access"]')).toBeVisible();
        await check(page, 'api-policies', theme);
        await page.getByRole('button', { name: 'Edit policy Partner access' }).click();
        await check(page, 'api-policy-edit', theme);
        await page.getByRole('button', { name: 'Cancel' }).click();
        await page.getByRole('button', { name: 'New API key' }).click();
        await page.getByRole('textbox', { name: 'Key name' }).fill(`Screenshot ${theme} ${size}`);
        await page.getByRole('button', { name: 'Create key' }).click();
        await expect(page.getByText('Copy the key now')).toBeVisible();
        await check(page, 'api-key-shown-once', theme);
        await page.getByRole('button', { name: 'Done' }).click();

        await visit(page, configured, '/api-monitoring', 'API monitoring');
        const requests = page.getByRole('grid', { name: 'Monitored requests' });
        await expect(requests.getByRole('gridcell', { name: '/no-such-api' })).toBeVisible();
        await check(page, 'api-monitoring', theme);
        await requests.getByRole('gridcell', { name: '/orders-api/v1/orders/42' }).click();
        await check(page, 'api-monitoring-request-details', theme);
        await page.keyboard.press('Escape');
      });

      test(`the Passthrough editor passes axe (${theme}, ${size})`, async ({ page }) => {
        await signInWithToken(page, configured, 'Operator', 'screenshot-operator', '/apis');
        await page.getByRole('link', { name: 'Modify Passthrough API for Orders API' }).click();
        await expect(page.getByRole('heading', { level: 1, name: 'Modify Passthrough API' })).toBeVisible();
        const preview = page.getByTestId('target-url-preview');
        await expect(preview).toHaveAttribute('data-preview-state', 'ready');
        await check(page, 'passthrough-editor', theme);
        const section3 = page.getByLabel('Target URL section 3', { exact: true });
        await section3.click();
        await page.keyboard.type('{{#');
        await expect(
          page.getByRole('listbox', { name: 'References for Target URL section 3' }),
        ).toBeVisible();
        await expect(preview).not.toHaveAttribute('data-preview-state', 'pending');
        await check(page, 'passthrough-editor-references', theme);
        await page.keyboard.press('Escape');
        await section3.fill('{{ "a" * 2 }}');
        await expect(page.getByTestId('template-error')).toBeVisible();
        await page.getByRole('button', { name: 'Add header entry' }).click();
        await page.getByRole('button', { name: /Advanced/ }).click();
        await expect(preview).toHaveAttribute('data-preview-state', 'error');
        await check(page, 'passthrough-editor-errors', theme);
        await page
          .getByRole('listbox', { name: 'Operations' })
          .locator('[data-operation-key="GET /orders"]')
          .click();
        await expect(
          page.getByRole('button', { name: 'Create an entry from the All operations defaults' }),
        ).toBeVisible();
        await check(page, 'passthrough-editor-operation', theme);
        await page.getByRole('button', { name: 'Save' }).click();
        await expect(page.getByTestId('save-status')).toHaveAttribute('role', 'alert');
        await check(page, 'passthrough-editor-save-refused', theme);
      });

      test(`the flag-off explanation and the read-only settings pass axe (${theme}, ${size})`, async ({
        page,
      }) => {
        await signInWithToken(page, flagOff, 'Auditor', 'screenshot-auditor', '/audit-log');
        await expect(
          page.getByRole('heading', { name: 'The audit log endpoint is turned off' }),
        ).toBeVisible();
        await check(page, 'audit-log-flag-off', theme);
        await visit(page, flagOff, '/tenant-settings', 'Tenant settings');
        await expect(page.getByTestId('read-only-notice')).toBeVisible();
        await check(page, 'tenant-settings-read-only', theme);

        // The first-run path, by one who may take its steps (the state carries over between runs).
        await page.getByRole('button', { name: 'Sign out' }).click();
        await signInWithToken(page, flagOff, 'Administrator', 'screenshot-admin', '/getting-started');
        await expect(page.getByRole('heading', { level: 1, name: 'Getting started' })).toBeVisible();
        await check(page, 'getting-started', theme);
        for (const step of ['Import the sample API', 'Create the passthrough']) {
          const button = page.getByRole('button', { name: step });
          if (await button.isVisible()) await button.click();
          await expect(button).toHaveCount(0);
        }
        await page.getByRole('button', { name: 'Send the request' }).click();
        await expect(page.getByTestId('getting-started-response')).toContainText('200 OK');
        await check(page, 'getting-started-done', theme);
      });
    });
  }

test('the console fits a 1024 px wide window', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await signInWithToken(page, flagOn, 'Operator', 'narrow-operator', '/audit-log');
  for (const [path, heading] of [
    ['/audit-log', 'Audit log'],
    ['/tenant-settings', 'Tenant settings'],
  ] as const) {
    await visit(page, flagOn, path, heading);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${path} scrolls sideways`).toBeLessThanOrEqual(0);
    await saveScreenshot(page, `${path.slice(1)}-1024px`);
  }
  await signInWithToken(page, configured, 'Operator', 'narrow-operator', '/environment-variables');
  for (const [path, heading] of [
    ['/environment-variables', 'Environment variables'],
    ['/apis', 'APIs'],
    ['/api-policies', 'API policies'],
    ['/api-monitoring', 'API monitoring'],
  ] as const) {
    await visit(page, configured, path, heading);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${path} scrolls sideways`).toBeLessThanOrEqual(0);
    await saveScreenshot(page, `${path.slice(1)}-1024px`);
  }
});
