import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startGatehouse, type StartedGatehouse } from './gatehouse-fixture.js';
import { signInWithToken } from './support/console.js';
import { startEchoUpstream, type EchoUpstream } from './support/echo-upstream.js';
import { managementApi } from './support/management-api.js';
import { startPostgresServer, type PostgresServer } from '../helpers/postgres-server.js';

// Two instances of a team on one PostgreSQL: the console of A shows what B's gateway served, and filters by it.
let postgres: PostgresServer;
let keys: string;
let a: StartedGatehouse;
let b: StartedGatehouse;
let upstream: EchoUpstream;

test.beforeAll(async () => {
  postgres = await startPostgresServer();
  keys = await mkdtemp(join(tmpdir(), 'gatehouse-e2e-keys-'));
  const keyFile = join(keys, 'secrets.key');
  await writeFile(keyFile, randomBytes(32).toString('base64'), { mode: 0o600 });
  const instance = (name: string) =>
    startGatehouse({
      settings: { 'Flags:EnableServiceApiAuditLogRoute': 'true' },
      env: {
        ConnectionStrings__Gatehouse: postgres.url,
        Secrets__KeyFile: keyFile,
        Instance__Id: name,
      },
    });
  a = await instance('gw-a');
  [b, upstream] = await Promise.all([instance('gw-b'), startEchoUpstream()]);
  const api = await managementApi(a);
  const orders = await api.importOrdersApi();
  await api.call('POST', `/api/v1/apis/${orders.id}/passthrough`, {
    allOperations: { target: { section1: upstream.url, section2: 'orders' } },
    policy: { grants: [{ type: 'public' }] },
  });
  for (const [gatehouse, count] of [
    [a, 2],
    [b, 3],
  ] as const) {
    await expect
      .poll(async () => (await fetch(`${gatehouse.gatewayUrl}/orders-api/v1/orders`)).status)
      .toBe(200);
    for (let index = 1; index < count; index++) {
      expect((await fetch(`${gatehouse.gatewayUrl}/orders-api/v1/orders`)).status).toBe(200);
    }
  }
  await expect
    .poll(
      async () =>
        (
          await api.call<{ paging: { totalCount: number } }>(
            'GET',
            '/api/v1/monitoring/requests?PageSize=1&path=/orders-api/',
          )
        ).paging.totalCount,
      { timeout: 10_000 },
    )
    .toBe(5);
});
test.afterAll(async () => {
  await Promise.all([a.stop(), b.stop(), upstream.close()]);
  await postgres.destroy();
  await rm(keys, { recursive: true, force: true });
});

async function chooseOption(page: Page, field: string, option: string): Promise<void> {
  await page.getByRole('combobox', { name: field }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('the console of one instance lists the requests every instance served, and filters by instance', async ({
  page,
}) => {
  await signInWithToken(page, a, 'Auditor', 'team-auditor', '/api-monitoring?path=/orders-api/');
  const pagination = page.locator('.MuiTablePagination-displayedRows');
  await expect(pagination).toHaveText('1–5 of 5');
  await chooseOption(page, 'Instance', 'gw-b');
  await expect(page).toHaveURL(/instance=gw-b/);
  await expect(pagination).toHaveText('1–3 of 3');
  await page
    .getByRole('grid', { name: 'Monitored requests' })
    .getByRole('gridcell', { name: '/orders-api/v1/orders' })
    .first()
    .click();
  const drawer = page.getByRole('dialog', { name: 'GET /orders-api/v1/orders' });
  await expect(drawer.getByTestId('monitoring-record-fields')).toContainText('gw-b');
  await page.keyboard.press('Escape');

  // The audit trail: each instance recorded its own listener's start.
  await page.goto(`${a.controlPanelUrl}/audit-log?actionName=Agent.Started`);
  await expect(pagination).toHaveText('1–2 of 2');
  await chooseOption(page, 'Instance', 'gw-a');
  await expect(page).toHaveURL(/instance=gw-a/);
  await expect(pagination).toHaveText('1–1 of 1');
  await page.getByRole('grid', { name: 'Audit log entries' }).getByRole('row').nth(1).click();
  await expect(page.getByRole('dialog')).toContainText('gw-a');
});

test("the Control Panel card names its instance and says settings and the restart are that instance's own", async ({
  page,
}) => {
  await signInWithToken(page, b, 'Operator', 'team-operator', '/tenant-settings');
  await expect(page.getByTestId('control-panel-instance')).toHaveText('gw-b');
  await expect(page.getByTestId('control-panel-per-instance')).toContainText(
    'apply to this instance (gw-b) only',
  );
});
