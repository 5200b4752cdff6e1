import { expect, test } from '@playwright/test';
import { startGatehouse, type StartedGatehouse } from './gatehouse-fixture.js';
import { signInWithToken } from './support/console.js';
import { managementApi } from './support/management-api.js';

/** One more page than the management API's largest (500). */
const ENVIRONMENTS = 505;

let gatehouse: StartedGatehouse;

test.beforeAll(async () => {
  gatehouse = await startGatehouse();
  const api = await managementApi(gatehouse);
  for (let index = 1; index <= ENVIRONMENTS; index++) {
    await api.call('POST', '/api/v1/environments', { name: `Env ${String(index).padStart(3, '0')}` });
  }
});
test.afterAll(async () => {
  await gatehouse.stop();
});

test('a list longer than one page of the management API is shown whole', async ({ page }) => {
  await signInWithToken(page, gatehouse, 'Operator', 'long-lists', '/environment-variables');
  const table = page.getByRole('table', { name: 'Environments' });
  await expect(table.getByRole('cell', { name: `Env ${ENVIRONMENTS}`, exact: true })).toBeVisible();
  // The built-in Development environment, the ones added, and the heading row.
  await expect(table.getByRole('row')).toHaveCount(ENVIRONMENTS + 2);
});
