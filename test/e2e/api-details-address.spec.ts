import { expect, test } from '@playwright/test';
import { startGatehouse, type StartedGatehouse } from './gatehouse-fixture.js';
import { signInWithToken } from './support/console.js';
import { managementApi } from './support/management-api.js';

let gatehouse: StartedGatehouse;
test.beforeAll(async () => {
  gatehouse = await startGatehouse();
});
test.afterAll(async () => {
  await gatehouse.stop();
});

test("an API's details page shows the address callers use, copyable, for each agent group", async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const api = await managementApi(gatehouse);
  const orders = await api.importOrdersApi();
  await signInWithToken(page, gatehouse, 'Administrator', 'admin', `/apis/${orders.id}`);

  const expected = `${gatehouse.gatewayUrl}/orders-api/v1`;
  const address = page.getByTestId('api-caller-url');
  await expect(address).toHaveText(expected);
  // The document's own server URL is there too, but named for what it is.
  await expect(page.getByText('Server URL in the document')).toBeVisible();
  await page.getByRole('button', { name: 'Copy the address for callers (Default)' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(expected);
  // A second agent group adds its own address, each named.
  const edge = await api.call<{ id: string; listenerUrl: string }>('POST', '/api/v1/agent-groups', {
    name: 'Edge',
    environmentId: 'development',
  });
  await api.call('PATCH', `/api/v1/apis/${orders.id}`, { agentGroupIds: ['default', edge.id] });
  await page.reload();
  await expect(address).toHaveText([expected, `${edge.listenerUrl}/orders-api/v1`]);
  await expect(page.getByTestId('api-caller-addresses')).toContainText('(Edge)');
});
