import { expect, test, type Page } from '@playwright/test';
import { startGatehouse, type StartedGatehouse } from './gatehouse-fixture.js';
import { expectNoSeriousViolations, saveScreenshot } from './support/accessibility.js';
import { openScreen, signInWithToken } from './support/console.js';
import { startEchoUpstream, type EchoUpstream } from './support/echo-upstream.js';
import { managementApi, type ManagementApi } from './support/management-api.js';

const BACKEND_TOKEN = 'capture-Secret-4242';
const CALLER_TOKEN = 'caller-token-7777';
const PASSWORD = 'hunter2-in-the-body';

let gatehouse: StartedGatehouse;
let upstream: EchoUpstream;
let api: ManagementApi;
let ordersId: string;

test.beforeAll(async () => {
  [gatehouse, upstream] = await Promise.all([startGatehouse(), startEchoUpstream()]);
  api = await managementApi(gatehouse);
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
  ordersId = orders.id;
  await api.call('POST', `/api/v1/apis/${orders.id}/passthrough`, {
    allOperations: {
      target: { section1: '{{#env.backend.url}}', section2: 'orders' },
      // The echo target sends the headers it got back: the capture must mask this one.
      headers: [{ action: 'Overwrite', name: 'X-Backend-Token', value: '{{#env.backend.token}}' }],
      cors: {
        enabled: true,
        allowedOrigins: ['https://app.example.com'],
        allowCredentials: false,
        maxAgeSeconds: 60,
      },
    },
    policy: { grants: [{ type: 'public' }] },
  });
});
test.afterAll(async () => {
  await Promise.all([gatehouse.stop(), upstream.close()]);
});

function preflight(origin: string): Promise<Response> {
  return fetch(`${gatehouse.gatewayUrl}/orders-api/v1/orders`, {
    method: 'OPTIONS',
    headers: { Origin: origin, 'Access-Control-Request-Method': 'POST' },
  });
}

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

function grid(page: Page) {
  return page.getByRole('grid', { name: 'Monitored requests' });
}

test('a developer turns on capture, sends requests and reads each exchange, refused preflights and the matched operation', async ({
  page,
}) => {
  // Turn capture on from the API's page: off by default.
  await signInWithToken(page, gatehouse, 'Administrator', 'capture-admin', `/apis/${ordersId}`);
  const card = page.getByRole('region', { name: 'Monitoring capture' });
  const toggle = card.getByRole('switch', { name: 'Capture headers and bodies' });
  await expect(toggle).not.toBeChecked();
  await toggle.check();
  const limit = card.getByRole('textbox', { name: 'Body bytes kept per direction' });
  await limit.fill('-5');
  await expect(card).toContainText('A whole number from 0 to 1,048,576.');
  await expect(card.getByRole('button', { name: 'Save capture' })).toBeDisabled();
  await limit.fill('4096');
  await card.getByRole('button', { name: 'Save capture' }).click();
  await expect(page.getByText('Monitoring captures the exchanges of')).toBeVisible();
  await expectNoSeriousViolations(page, 'the API page with its monitoring capture card');
  await expect
    .poll(
      async () =>
        (await api.call<{ monitoringCapture: unknown }>('GET', `/api/v1/apis/${ordersId}`)).monitoringCapture,
    )
    .toEqual({ enabled: true, maxBodyBytes: 4096 });

  // Traffic: a JSON POST with credentials, a preflight from an allowed and one from a refused origin.
  await expect
    .poll(async () => {
      const response = await fetch(`${gatehouse.gatewayUrl}/orders-api/v1/orders?trace=on`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Authorization: `Bearer ${CALLER_TOKEN}`,
          'X-Request-Tag': 'visible-tag',
        },
        body: JSON.stringify({ item: 'book', password: PASSWORD }),
      });
      return response.status;
    })
    .toBe(200);
  expect((await preflight('https://app.example.com')).headers.get('access-control-allow-origin')).toBe(
    'https://app.example.com',
  );
  const refused = await preflight('https://evil.example.net');
  expect(refused.status).toBe(204);
  expect(refused.headers.get('access-control-allow-origin')).toBeNull();
  await waitForRecords(3);

  await openScreen(page, 'API monitoring');
  // The default range fits a developer's testing: the last hour, per minute.
  await expect(page.getByRole('combobox', { name: 'Time range' })).toHaveText('Last hour');
  await expect(page.getByTestId('requests-chart')).toContainText('per minute');

  // The refused preflight reads as refused, distinct from the allowed one.
  await expect(grid(page).getByRole('row').filter({ hasText: 'CORS preflight refused' })).toHaveCount(1);
  await grid(page).getByRole('row').filter({ hasText: 'CORS preflight refused' }).click();
  let drawer = page.getByRole('dialog', { name: 'OPTIONS /orders-api/v1/orders' });
  await expect(drawer.getByTestId('record-outcome')).toHaveText('preflight-refused');
  await expect(drawer).toContainText('origin https://evil.example.net is not allowed for POST');
  await expect(drawer).toContainText('the browser does not send the request');
  await page.keyboard.press('Escape');
  await expect(
    grid(page)
      .getByRole('row')
      .filter({ hasText: /CORS preflight(?! refused)/ }),
  ).toHaveCount(1);

  // The POST: the operation it matched, served by All operations, and the exchange as an HTTP client shows it.
  await grid(page).getByRole('row').filter({ hasText: 'Forwarded' }).click();
  drawer = page.getByRole('dialog', { name: 'POST /orders-api/v1/orders' });
  await expect(drawer.getByTestId('record-operation')).toHaveText('POST /orders — served by All operations');
  const request = drawer.getByTestId('captured-request');
  await expect(request).toContainText('POST /orders-api/v1/orders?trace=on HTTP/1.1');
  await expect(request).toContainText('Authorization: ********');
  await expect(request).toContainText('X-Request-Tag: visible-tag');
  await expect(request).toContainText('"item": "book"');
  await expect(request).toContainText('"password": "********"');
  const response = drawer.getByTestId('captured-response');
  await expect(response).toContainText('HTTP/1.1 200');
  await expect(response).toContainText(/Content-Type: application\/json/i);
  await expect(response).toContainText('visible-tag');
  const content = await page.content();
  for (const secret of [BACKEND_TOKEN, CALLER_TOKEN, PASSWORD]) expect(content).not.toContain(secret);
  await expectNoSeriousViolations(page, 'the record drawer with a captured exchange');
  await saveScreenshot(page, 'api-monitoring-captured-exchange');
  await page.keyboard.press('Escape');

  // A record without capture says how to get one.
  await page.getByRole('combobox', { name: 'Time range' }).click();
  await page.getByRole('option', { name: 'Last 24 hours' }).click();
  await expect(page).toHaveURL(/range=24h/);
});

test('a small cap truncates bodies and says so', async ({ page }) => {
  await api.call('PATCH', `/api/v1/apis/${ordersId}`, {
    monitoringCapture: { enabled: true, maxBodyBytes: 16 },
  });
  const body = JSON.stringify({ note: 'x'.repeat(100) });
  await expect
    .poll(async () => {
      const response = await fetch(`${gatehouse.gatewayUrl}/orders-api/v1/orders/77`, {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/json' },
        body,
      });
      return response.status;
    })
    .toBe(200);
  await signInWithToken(page, gatehouse, 'Auditor', 'capture-auditor', '/api-monitoring?method=PATCH');
  await grid(page).getByRole('row').filter({ hasText: '/orders-api/v1/orders/77' }).click();
  const drawer = page.getByRole('dialog', { name: 'PATCH /orders-api/v1/orders/77' });
  // An operation with no entry of its own, matched by its template.
  await expect(drawer.getByTestId('record-operation')).toHaveText(
    'PATCH /orders/{orderId} — served by All operations',
  );
  await expect(drawer.getByTestId('captured-request-note')).toHaveText(
    `Truncated: the first 16 of ${body.length} bytes are kept.`,
  );
  await expect(drawer.getByTestId('captured-request')).toContainText('{"note":"xxxxxxx');
});

test('with no request in the last hour, the screen says earlier ones are kept and shows them on one click', async ({
  page,
}) => {
  await signInWithToken(page, gatehouse, 'Auditor', 'capture-auditor-2', '/api-monitoring?path=/never-sent');
  const hint = page.getByTestId('older-requests-hint');
  await expect(hint).toContainText('No requests in the last hour');
  await hint.getByRole('button', { name: 'Show the last 24 hours' }).click();
  await expect(page).toHaveURL(/range=24h/);
  await expect(page.getByTestId('requests-chart')).toContainText('per hour');
});
