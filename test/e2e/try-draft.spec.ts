import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { startGatehouse, type StartedGatehouse } from './gatehouse-fixture.js';
import { signInWithToken } from './support/console.js';
import { startEchoUpstream, type EchoUpstream } from './support/echo-upstream.js';
import { managementApi, type ManagementApi } from './support/management-api.js';
import { section } from './support/passthrough-editor.js';

let gatehouse: StartedGatehouse;
let upstream: EchoUpstream;
let api: ManagementApi;
let ordersId: string;

test.beforeAll(async () => {
  [gatehouse, upstream] = await Promise.all([startGatehouse(), startEchoUpstream()]);
  api = await managementApi(gatehouse);
  await api.call('POST', '/api/v1/environment-variables', { kind: 'value', name: 'backend', type: 'string' });
  const variables = await api.call<{ data: { id: string; name: string }[] }>(
    'GET',
    '/api/v1/environment-variables',
  );
  const backend = variables.data.find((variable) => variable.name === 'backend')!;
  await api.call('PUT', `/api/v1/environment-variables/${backend.id}/values/development`, {
    value: upstream.url,
  });
  ordersId = (await api.importOrdersApi()).id;
  await api.call('POST', `/api/v1/apis/${ordersId}/passthrough`, {
    allOperations: { target: { section1: '{{#env.backend}}', section2: 'saved' } },
    policy: { grants: [{ type: 'public' }] },
  });
});
test.afterAll(async () => {
  await Promise.all([gatehouse.stop(), upstream.close()]);
});

test('Try it sends the unsaved draft through the gateway without deploying it', async ({ page }) => {
  await signInWithToken(page, gatehouse, 'Operator', 'draft-trier', `/apis/${ordersId}/passthrough`);
  await expect(section(page, 2)).toHaveValue('saved');
  await section(page, 2).fill('drafted');
  const panel = page.getByTestId('try-it-panel');
  const useDraft = panel.getByRole('switch', { name: 'Try the unsaved changes (not deployed)' });
  await expect(useDraft).toBeChecked();
  await panel.getByRole('button', { name: 'Send' }).click();
  await expect(panel.getByTestId('try-it-status')).toContainText('200');
  await expect(panel.getByTestId('try-it-configuration')).toHaveText(
    'Answered with the unsaved changes (not deployed).',
  );
  await expect(panel.getByTestId('try-it-target-url')).toContainText(`${upstream.url}/drafted`);
  expect(upstream.received.at(-1)!.url).toMatch(/^\/drafted/);

  // Nothing was deployed: other callers still get the saved configuration, and the editor still says Unsaved.
  const outside = await fetch(`${gatehouse.gatewayUrl}/orders-api/v1/orders`);
  expect(outside.status).toBe(200);
  expect(upstream.received.at(-1)!.url).toMatch(/^\/saved/);
  const stored = await api.call<{ allOperations: { target: { section2: string } } }>(
    'GET',
    `/api/v1/apis/${ordersId}/passthrough`,
  );
  expect(stored.allOperations.target.section2).toBe('saved');

  // The saved configuration on request.
  await useDraft.uncheck();
  await panel.getByRole('button', { name: 'Send' }).click();
  await expect(panel.getByTestId('try-it-configuration')).toHaveText(
    'Answered with the saved configuration.',
  );
  await expect(panel.getByTestId('try-it-target-url')).toContainText(`${upstream.url}/saved`);

  // A draft that would not save is refused the same way, at the field.
  await useDraft.check();
  await section(page, 2).fill('{{#env.nowhere}}');
  await panel.getByRole('button', { name: 'Send' }).click();
  await expect(panel.getByRole('alert')).toBeVisible();
  expect(upstream.received.at(-1)!.url).toMatch(/^\/saved/);
});

test('a Passthrough not created yet can be tried, with the access the save would give it; nothing is created', async ({
  page,
}) => {
  const inventory = JSON.parse(
    await readFile(new URL('../../resources/samples/inventory-api.openapi.json', import.meta.url), 'utf8'),
  ) as unknown;
  const imported = await api.call<{ api: { id: string } }>('POST', '/api/v1/apis', inventory);
  await signInWithToken(page, gatehouse, 'Operator', 'first-trier', `/apis/${imported.api.id}/passthrough`);
  await expect(page.getByRole('heading', { level: 1, name: 'Create Passthrough API' })).toBeVisible();
  await page.getByRole('radio', { name: 'Public (everyone)' }).check();
  await section(page, 1).fill(upstream.url);
  await section(page, 3).fill('{{#api.OperationPath}}');

  const panel = page.getByTestId('try-it-panel');
  await expect(panel.getByRole('switch', { name: 'Try the unsaved changes (not deployed)' })).toBeChecked();
  // The field starts as "/" after the base path: typing "/items/…" after it does not double the slash.
  const path = panel.getByLabel('Path and query');
  await path.click();
  await path.press('End');
  await path.pressSequentially('/items/ABC-123');
  await expect(path).toHaveValue('/items/ABC-123');
  await panel.getByRole('button', { name: 'Send' }).click();
  await expect(panel.getByTestId('try-it-status')).toContainText('200');
  await expect(panel.getByTestId('try-it-configuration')).toHaveText(
    'Answered with the unsaved changes (not deployed).',
  );
  await expect(panel.getByTestId('try-it-target-url')).toContainText(`${upstream.url}/items/ABC-123`);
  expect(upstream.received.at(-1)!.url).toBe('/items/ABC-123');

  // The policy of the draft is the one the save would create: with an API key asked for, the try is refused.
  await page.getByRole('radio', { name: 'API key' }).check();
  await panel.getByRole('button', { name: 'Send' }).click();
  await expect(panel.getByTestId('try-it-status')).toContainText('401');

  // Nothing was created: no configuration, no policy, and the gateway does not serve the API.
  await expect(page.getByText('Unsaved: create the Passthrough API to deploy it.')).toBeVisible();
  const policies = await api.call<{ data: { name: string }[] }>('GET', '/api/v1/policies');
  expect(policies.data.map((policy) => policy.name)).not.toContain('Inventory API passthrough');
  const stored = await fetch(`${gatehouse.controlPanelUrl}/api/v1/apis/${imported.api.id}/passthrough`, {
    headers: { Authorization: `Bearer ${await gatehouse.token('Auditor')}` },
  });
  expect(stored.status).toBe(404);
  const outside = await fetch(`${gatehouse.gatewayUrl}/inventory/v2/items/ABC-123`);
  expect(outside.status).toBe(404);
});
