import { expect, test } from '@playwright/test';
import { startGatehouse, type StartedGatehouse } from './gatehouse-fixture.js';
import { signInWithToken } from './support/console.js';

let gatehouse: StartedGatehouse;
test.beforeAll(async () => {
  gatehouse = await startGatehouse({ settings: { 'Flags:EnableServiceApiAuditLogRoute': 'true' } });
});
test.afterAll(async () => {
  await gatehouse.stop();
});

test('a first run: sample API, echo target, a request, seen in monitoring and the audit log — one click a step', async ({
  page,
}) => {
  const started = Date.now();
  await signInWithToken(page, gatehouse, 'Administrator', 'newcomer');
  // The first screen, with no API yet, points at the path.
  await expect(page.getByTestId('apis-empty-state')).toBeVisible();
  await page.getByRole('link', { name: 'Getting started (2 minutes)' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Getting started' })).toBeVisible();
  const step = (number: number) => page.locator('li[aria-labelledby]').nth(number - 1);

  await page.getByRole('button', { name: 'Import the sample API' }).click();
  await expect(step(1)).toHaveAttribute('data-step-done', 'true');
  await expect(step(1)).toContainText('Inventory API is imported: base path /inventory/v2');

  await page.getByRole('button', { name: 'Create the passthrough' }).click();
  await expect(step(2)).toHaveAttribute('data-step-done', 'true');
  await expect(page.getByTestId('getting-started-caller-url')).toHaveText(
    `${gatehouse.gatewayUrl}/inventory/v2`,
  );

  await page.getByRole('button', { name: 'Send the request' }).click();
  const response = page.getByTestId('getting-started-response');
  await expect(response).toContainText('The gateway answered 200 OK');
  await expect(response).toContainText(`${gatehouse.controlPanelUrl}/echo/items/ABC-123?warehouse=berlin`);
  await expect(response.locator('pre')).toContainText('"url": "/echo/items/ABC-123?warehouse=berlin"');

  await page.getByRole('button', { name: 'Open API monitoring' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'API monitoring' })).toBeVisible();
  const requests = page.getByRole('grid', { name: 'Monitored requests' });
  await expect(requests.getByRole('gridcell', { name: '/inventory/v2/items/ABC-123' })).toBeVisible();
  // One request is "1 request", not "1 requests".
  await expect(page.getByTestId('requests-chart')).toContainText('1 request (1 2xx,');
  test
    .info()
    .annotations.push({ type: 'first run', description: `${Date.now() - started} ms, sign-in included` });

  // The same request from outside the console reaches the echo target too: the passthrough is real.
  const direct = await fetch(`${gatehouse.gatewayUrl}/inventory/v2/items/XYZ?x=1`);
  expect(direct.status).toBe(200);
  expect(((await direct.json()) as { url: string }).url).toBe('/echo/items/XYZ?x=1');

  // Each step is in the audit log under the user's name.
  const token = await gatehouse.token('Auditor');
  const audit = (await (
    await fetch(`${gatehouse.controlPanelUrl}/api/v1/audit-log?userName=newcomer`, {
      headers: { Authorization: `Bearer ${token}` },
    })
  ).json()) as { items: { actionName: string; statusCode: number }[] };
  expect(audit.items.map((entry) => `${entry.actionName} ${entry.statusCode}`)).toEqual([
    'Passthroughs.Try 200',
    'Passthroughs.Create 201',
    'Apis.Import 201',
  ]);

  // Back on the page later, the steps done are shown done.
  await page.goto(`${gatehouse.controlPanelUrl}/getting-started`);
  await expect(step(1)).toHaveAttribute('data-step-done', 'true');
  await expect(step(2)).toHaveAttribute('data-step-done', 'true');
  await expect(page.getByRole('button', { name: 'Send the request' })).toBeEnabled();

  // The path ends where the newcomer sees the change: the audit log, one click away.
  await page.getByTestId('getting-started-audit-link').click();
  await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
  await expect(
    page
      .getByRole('grid', { name: 'Audit log entries' })
      .getByRole('gridcell', { name: 'Passthroughs.Create' }),
  ).toBeVisible();
});

test('an Auditor sees the path but cannot take its steps', async ({ page }) => {
  await signInWithToken(page, gatehouse, 'Auditor', 'watcher', '/getting-started');
  await expect(page.getByText('sign in as an Administrator or Operator')).toBeVisible();
});
