import { expect, test, type Page } from '@playwright/test';
import { DescriptionServer } from '../helpers/description-server.js';
import { startGatehouse, type StartedGatehouse } from './gatehouse-fixture.js';
import { saveScreenshot } from './support/accessibility.js';
import { signInWithToken } from './support/console.js';
import { ROUGH } from './support/api-documents.js';
import { droppedFileFrom, dropFile } from './support/file-drop.js';
import { managementApi, type ManagementApi } from './support/management-api.js';

let gatehouse: StartedGatehouse;
let api: ManagementApi;
let descriptions: DescriptionServer;

/** The pets description as its backend publishes it: version 1, then 2 (one operation gone, one added). */
function publishPets(version: 1 | 2): void {
  const paths: Record<string, unknown> = {
    '/pets': {
      get: { operationId: 'listPets', responses: { '200': { description: 'ok' } } },
      post: { operationId: 'addPet', responses: { '201': { description: 'created' } } },
    },
    '/pets/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      get: { $ref: './operations.json#/getPet' },
    },
  };
  if (version === 2) {
    delete (paths['/pets'] as Record<string, unknown>).post;
    paths['/owners'] = { get: { operationId: 'listOwners', responses: { '200': { description: 'ok' } } } };
  }
  descriptions.serve('/v1/swagger.json', {
    openapi: '3.1.0',
    info: { title: 'Pets', version: `${version}.0.0` },
    servers: [{ url: '/pets-api' }],
    paths,
  });
  descriptions.serve('/v1/operations.json', {
    getPet: { operationId: 'getPet', responses: { '200': { description: 'ok' } } },
  });
}

test.beforeAll(async () => {
  gatehouse = await startGatehouse();
  api = await managementApi(gatehouse);
  descriptions = await DescriptionServer.start();
  publishPets(1);
});
test.afterAll(async () => {
  await descriptions.close();
  await gatehouse.stop();
});

test.describe.configure({ mode: 'serial' });

const importDialog = (page: Page) => page.getByRole('dialog', { name: 'Import an API' });

async function openApis(page: Page, user: string): Promise<void> {
  await signInWithToken(page, gatehouse, 'Operator', user, '/apis');
  await expect(page.getByRole('heading', { level: 1, name: 'APIs' })).toBeVisible();
}

test('import from a URL: a loopback address is confirmed first, the files it names are read', async ({
  page,
}) => {
  await openApis(page, 'import-url');
  await page.getByRole('button', { name: 'Import an OpenAPI document' }).click();
  const dialog = importDialog(page);
  await dialog.getByRole('tab', { name: 'From a URL' }).click();
  await dialog.getByRole('textbox', { name: 'Description URL' }).fill(descriptions.url('/v1/swagger.json'));
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  const prompt = dialog.getByTestId('private-address-prompt');
  await expect(prompt).toContainText('127.0.0.1 resolves to 127.0.0.1, a loopback or private address');
  expect(descriptions.requests).toEqual([]);
  await saveScreenshot(page, 'api-import-url-confirm');
  await prompt.getByRole('button', { name: 'Load it anyway' }).click();
  await expect(page.getByText('API “Pets” imported')).toBeVisible();
  expect(descriptions.requests).toEqual(['/v1/swagger.json', '/v1/operations.json']);
  await expect(page.locator('[data-api-name="Pets"]').getByTestId('operation-count')).toHaveText('3');
});

test('the warnings view: grouped by kind, counted, expandable; skipped operations with their reason', async ({
  page,
}) => {
  await openApis(page, 'import-warnings');
  await dropFile(page.getByTestId('apis-drop-area'), {
    name: 'rough.yaml',
    content: ROUGH,
    type: 'application/yaml',
  });
  const dialog = importDialog(page);
  await expect(dialog.getByTestId('chosen-document')).toContainText('rough.yaml');
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  const warnings = dialog.getByTestId('import-warnings');
  await expect(warnings).toContainText('rough was imported with 3 operations');
  await expect(warnings).toContainText('1 operation is not exposed');
  await expect(warnings.getByTestId('skipped-operation')).toContainText(
    "GET /things/{thingId}: the gateway can't tell it apart from GET /things/{id}",
  );
  const groups = warnings.getByTestId('warning-group');
  const undeclared = groups.filter({ hasText: 'is not declared' });
  await expect(undeclared.getByTestId('warning-group-count')).toHaveText('4');
  await expect(
    groups.filter({ hasText: 'duplicate operationId' }).getByTestId('warning-group-count'),
  ).toHaveText('2');
  // More than three kinds: the groups start closed and open on request.
  await expect(undeclared.getByTestId('issue-pointer')).toHaveCount(0);
  await undeclared.getByRole('button').first().click();
  await expect(undeclared.getByTestId('issue-pointer')).toHaveCount(4);
  await expect(undeclared.getByTestId('issue-pointer').first()).toHaveText(
    '/paths/~1things~1{id}/get/parameters',
  );
  await saveScreenshot(page, 'api-import-warnings');
  await dialog.getByRole('link', { name: 'Open API' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'rough' })).toBeVisible();
  // Kept with the API: its details page shows the same report.
  const kept = page.getByRole('region', { name: 'Warnings' });
  await expect(kept.getByTestId('skipped-operation')).toContainText('GET /things/{thingId}');
  await expect(kept.getByTestId('warning-group')).toHaveCount(4);
});

test('a re-import from the same URL shows the change summary first; an earlier revision is restored', async ({
  page,
}) => {
  const pets = (await api.call<{ data: { id: string; name: string }[] }>('GET', '/api/v1/apis')).data.find(
    (candidate) => candidate.name === 'Pets',
  )!;
  await api.call('POST', `/api/v1/apis/${pets.id}/passthrough`, {
    operations: {
      'GET /pets': { target: { section1: 'https://pets.example.com', section2: 'list' } },
      'POST /pets': { target: { section1: 'https://pets.example.com', section2: 'add' } },
    },
  });
  publishPets(2);
  await openApis(page, 'import-revisions');
  await page.locator('[data-api-name="Pets"]').getByRole('link', { name: 'Pets', exact: true }).click();
  await page.getByRole('button', { name: 'Re-import' }).click();
  const dialog = page.getByRole('dialog', { name: 'Re-import Pets' });
  await expect(dialog.getByRole('textbox', { name: 'Description URL' })).toHaveValue(
    descriptions.url('/v1/swagger.json'),
  );
  await dialog.getByRole('button', { name: 'Re-import' }).click();
  await expect(dialog.getByTestId('private-address-prompt')).toBeVisible();
  await dialog.getByRole('button', { name: 'Load it anyway' }).click();
  const summary = dialog.getByTestId('change-summary');
  await expect(summary).toContainText('Applying the new version makes revision 2 of Pets');
  await expect(summary.getByTestId('added-operations')).toHaveText('GET /owners');
  await expect(summary.getByTestId('removed-operations')).toHaveText('POST /pets');
  await expect(summary.getByTestId('dropped-passthrough-entries')).toContainText(
    'POST /pets: the operation is no longer in the API',
  );
  await saveScreenshot(page, 'api-reimport-change-summary');
  await dialog.getByRole('button', { name: 'Apply re-import' }).click();
  await expect(dialog.getByTestId('reimport-outcome')).toContainText(
    'Pets is now at revision 2 (version 2.0.0)',
  );
  await dialog.getByRole('button', { name: 'Done' }).click();

  const revisions = page.getByRole('table', { name: 'Revisions' });
  await expect(revisions.locator('[data-revision="2"]')).toContainText('(current)');
  await expect(revisions.locator('[data-revision="1"]')).toContainText('Yes');
  await revisions.locator('[data-revision="1"]').getByRole('button', { name: 'Restore' }).click();
  const restore = page.getByRole('dialog', { name: 'Restore revision 1 of Pets' });
  await expect(restore.getByTestId('change-summary')).toContainText(
    'The passthrough configuration it had is restored',
  );
  await expect(restore.getByTestId('added-operations')).toHaveText('POST /pets');
  await saveScreenshot(page, 'api-restore-revision');
  await restore.getByRole('button', { name: 'Restore revision 1' }).click();
  await expect(page.getByText('Revision 1 of “Pets” restored')).toBeVisible();
  await expect(revisions.locator('[data-revision="3"]')).toContainText('restored from revision 1');
  const passthrough = await api.call<{ operations: Record<string, unknown> }>(
    'GET',
    `/api/v1/apis/${pets.id}/passthrough`,
  );
  expect(Object.keys(passthrough.operations).sort()).toEqual(['GET /pets', 'POST /pets']);
  await expect(
    page.getByRole('table', { name: 'Operations' }).locator('[data-operation="POST /pets"]'),
  ).toBeVisible();
});

test('a chosen file imports too, with progress while the server reads it', async ({ page }) => {
  await openApis(page, 'import-file');
  await page.getByRole('button', { name: 'Import API' }).click();
  const dialog = importDialog(page);
  const chooser = page.waitForEvent('filechooser');
  await dialog.getByRole('button', { name: 'Choose file' }).click();
  const file = await droppedFileFrom(
    new URL('../../resources/samples/inventory-api.openapi.json', import.meta.url).pathname,
  );
  await (
    await chooser
  ).setFiles({ name: file.name, mimeType: 'application/json', buffer: Buffer.from(file.content) });
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(page.getByText(/API “.+” imported/)).toBeVisible();
});
