import { expect, test, type Page, type Request } from '@playwright/test';
import { startGatehouse, type StartedGatehouse } from './gatehouse-fixture.js';
import { saveScreenshot } from './support/accessibility.js';
import { signInWithToken } from './support/console.js';
import { startEchoUpstream, type EchoUpstream } from './support/echo-upstream.js';
import { managementApi, type ManagementApi } from './support/management-api.js';

const BACKEND_TOKEN = 'monitoring-Secret-9911';
const FORWARDED = 4;
const UNMATCHED = 30;

let gatehouse: StartedGatehouse;
let upstream: EchoUpstream;
let api: ManagementApi;

async function get(path: string): Promise<number> {
  const response = await fetch(`${gatehouse.gatewayUrl}${path}`);
  await response.arrayBuffer();
  return response.status;
}

/** Monitoring stores records in batches: wait until the API lists at least `count`. */
async function waitForRecords(count: number): Promise<void> {
  await expect
    .poll(
      async () =>
        (await api.call<{ paging: { totalCount: number } }>('GET', '/api/v1/monitoring/requests?PageSize=1'))
          .paging.totalCount,
      { timeout: 10_000 },
    )
    .toBeGreaterThanOrEqual(count);
}

test.beforeAll(async () => {
  [gatehouse, upstream] = await Promise.all([startGatehouse(), startEchoUpstream()]);
  api = await managementApi(gatehouse);
  // A passthrough whose target URL carries a secret, so the monitoring record must mask it.
  const variable = await api.call<{ id: string }>('POST', '/api/v1/environment-variables', {
    kind: 'group',
    name: 'backend',
    members: [
      { name: 'url', type: 'string' },
      { name: 'token', type: 'secret' },
    ],
  });
  await api.call('PUT', `/api/v1/environment-variables/${variable.id}/values/development`, {
    members: { url: upstream.url, token: BACKEND_TOKEN },
  });
  const orders = await api.importOrdersApi();
  await api.call('POST', `/api/v1/apis/${orders.id}/passthrough`, {
    allOperations: {
      target: {
        section1: '{{#env.backend.url}}',
        section2: 'orders',
        section4: 'key={{#env.backend.token}}',
      },
    },
    policy: { grants: [{ type: 'public' }] },
  });

  for (let index = 0; index < FORWARDED - 1; index++) expect(await get('/orders-api/v1/orders')).toBe(200);
  expect(await get('/orders-api/v1/orders/42')).toBe(200);
  for (let index = 0; index < UNMATCHED; index++) expect(await get(`/no-such-api/${index}`)).toBe(404);
  await waitForRecords(FORWARDED + UNMATCHED);
});
test.afterAll(async () => {
  await Promise.all([gatehouse.stop(), upstream.close()]);
});

function requestsGrid(page: Page) {
  return page.getByRole('grid', { name: 'Monitored requests' });
}

function paginationLabel(page: Page) {
  return page.locator('.MuiTablePagination-displayedRows');
}

async function chooseOption(page: Page, field: string, option: string): Promise<void> {
  await page.getByRole('combobox', { name: field }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('real gateway traffic: filters kept in the URL, the details drawer, the charts', async ({ page }) => {
  const total = FORWARDED + UNMATCHED;
  await signInWithToken(page, gatehouse, 'Auditor', 'monitoring-auditor', '/api-monitoring');
  await expect(paginationLabel(page)).toHaveText(`1–${total} of ${total}`);
  // Requests that reached no exposed endpoint are listed, without an API.
  const unmatchedRow = requestsGrid(page).getByRole('row', { name: /\/no-such-api\/29/ });
  await expect(unmatchedRow).toContainText('No API');
  await expect(unmatchedRow).toContainText('Unmatched');
  await expect(unmatchedRow).toContainText('404');

  const requestsChart = page.getByTestId('requests-chart');
  await expect(requestsChart).toContainText(
    `${total} requests (${FORWARDED} 2xx, 0 3xx, ${UNMATCHED} 4xx, 0 5xx)`,
  );
  await expect(requestsChart.locator('svg').first()).toBeVisible();
  await expect(page.getByTestId('latency-chart').locator('svg').first()).toBeVisible();
  await saveScreenshot(page, 'api-monitoring-traffic');

  await chooseOption(page, 'Outcome', 'Unmatched');
  await expect(page).toHaveURL(/outcome=unmatched/);
  await expect(paginationLabel(page)).toHaveText(`1–${UNMATCHED} of ${UNMATCHED}`);
  await expect(requestsChart).toContainText(`${UNMATCHED} requests`);

  await chooseOption(page, 'Outcome', 'Any outcome');
  await page.getByRole('combobox', { name: 'Status' }).fill('2xx');
  await expect(page).toHaveURL(/status=2xx/);
  await expect(paginationLabel(page)).toHaveText(`1–${FORWARDED} of ${FORWARDED}`);
  await page.getByRole('textbox', { name: 'Path prefix' }).fill('/orders-api/v1/orders/');
  await expect(paginationLabel(page)).toHaveText('1–1 of 1');

  // Filters live in the URL: a reload shows the same records.
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Path prefix' })).toHaveValue('/orders-api/v1/orders/');
  await expect(paginationLabel(page)).toHaveText('1–1 of 1');

  // The details: every field, the target URL with its secret masked.
  await requestsGrid(page).getByRole('gridcell', { name: '/orders-api/v1/orders/42' }).click();
  const drawer = page.getByRole('dialog', { name: 'GET /orders-api/v1/orders/42' });
  await expect(drawer.getByTestId('record-outcome')).toHaveText('forwarded');
  await expect(drawer.getByTestId('record-target-url')).toContainText(`${upstream.url}/orders?key=********`);
  const fields = drawer.getByTestId('monitoring-record-fields');
  // All operations served it, and the record names the operation of the document it matched.
  await expect(drawer.getByTestId('record-operation')).toHaveText(
    'GET /orders/{orderId} — served by All operations',
  );
  for (const text of ['Orders API', 'public', '127.0.0.1', 'Default', 'Bytes out']) {
    await expect(fields).toContainText(text);
  }
  expect(await page.content()).not.toContain(BACKEND_TOKEN);
  await saveScreenshot(page, 'api-monitoring-details');
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();

  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(paginationLabel(page)).toHaveText(`1–${total} of ${total}`);
  expect(new URL(page.url()).search).toBe('');
});

test('Served by: everything the All operations entry served, apart from * (matched no operation)', async ({
  page,
}) => {
  await signInWithToken(page, gatehouse, 'Auditor', 'monitoring-auditor', '/api-monitoring');
  await chooseOption(page, 'Served by', 'All operations entry');
  await expect(page).toHaveURL(/viaAllOperations=true/);
  await expect(paginationLabel(page)).toHaveText(`1–${FORWARDED} of ${FORWARDED}`);
  // Every one of them matched an operation of the document: `*` alone finds none.
  await page.getByRole('combobox', { name: 'Operation' }).fill('*');
  await expect(page).toHaveURL(/operation=\*/);
  await expect(paginationLabel(page)).toHaveText('0–0 of 0');
  await page.getByRole('combobox', { name: 'Operation' }).fill('');
  await chooseOption(page, 'Served by', 'An operation’s own entry');
  await expect(page).toHaveURL(/viaAllOperations=false/);
  await expect(paginationLabel(page)).toHaveText(`1–${UNMATCHED} of ${UNMATCHED}`);
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Served by' })).toHaveText('An operation’s own entry');
  await expect(paginationLabel(page)).toHaveText(`1–${UNMATCHED} of ${UNMATCHED}`);
});

test('auto-refresh follows new requests on page 1 and leaves a later page alone', async ({ page }) => {
  await signInWithToken(page, gatehouse, 'Operator', 'monitoring-operator', '/api-monitoring?PageSize=25');
  const grid = requestsGrid(page);
  await expect(grid.getByRole('row').nth(1)).toBeVisible();
  await page.getByRole('switch', { name: /Auto-refresh/ }).check();

  expect(await get('/late-arrival')).toBe(404);
  // No click, no reload: the next refresh brings it in.
  await expect(grid.getByRole('gridcell', { name: '/late-arrival' })).toBeVisible({ timeout: 15_000 });

  await page.getByRole('button', { name: 'Go to next page' }).click();
  await expect(page).toHaveURL(/PageNumber=2/);
  await expect(page.getByRole('status').filter({ hasText: 'leaves page 2 as it is' })).toBeVisible();
  const firstRowBefore = await grid.getByRole('row').nth(1).textContent();
  expect(await get('/later-still')).toBe(404);
  await waitForRecords(FORWARDED + UNMATCHED + 2);
  // The next auto-refresh, seen in the charts' request: it fetches no list for page 2.
  const listRequests: string[] = [];
  const onRequest = (request: Request) => {
    if (new URL(request.url()).pathname === '/api/v1/monitoring/requests') listRequests.push(request.url());
  };
  page.on('request', onRequest);
  const tick = await page.waitForRequest(
    (request) => new URL(request.url()).pathname === '/api/v1/monitoring/summary',
    { timeout: 15_000 },
  );
  await tick.response();
  page.off('request', onRequest);
  expect(listRequests).toEqual([]);
  expect(await grid.getByRole('row').nth(1).textContent()).toBe(firstRowBefore);

  await page.getByRole('button', { name: 'Go to previous page' }).click();
  await expect(grid.getByRole('gridcell', { name: '/later-still' })).toBeVisible({ timeout: 15_000 });
  await saveScreenshot(page, 'api-monitoring');
});
