import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';
import { DescriptionServer } from '../../helpers/description-server.js';
import type { ApiImportJob, ApiRevisionList } from '../../../src-server/core/contracts/index.js';
import { entry, expectProblem, importApi, json, openApiDocument, send, type Passthrough } from './helpers.js';

describe('imports in steps, revisions and restore', () => {
  let server: TestServer;
  let descriptions: DescriptionServer;

  beforeAll(async () => {
    server = await startTestServer();
    descriptions = await DescriptionServer.start();
  });
  afterAll(async () => {
    await descriptions.close();
    await server.close();
  });

  async function startUpload(document: string): Promise<ApiImportJob> {
    const response = await server.api('/api/v1/api-imports?fileName=orders.json', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: document,
    });
    expect(response.status).toBe(202);
    return json<ApiImportJob>(response);
  }

  async function settled(id: string, query = ''): Promise<ApiImportJob> {
    for (let attempt = 0; attempt < 400; attempt++) {
      const job = await json<ApiImportJob>(await server.api(`/api/v1/api-imports/${id}${query}`));
      if (job.state !== 'running') return job;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error('the import did not finish');
  }

  it('reads an upload in the background, shows warnings and skipped operations, then applies it', async () => {
    const document = JSON.stringify({
      openapi: '3.0.3',
      info: { title: '', version: '1' },
      servers: [{ url: '/steps' }],
      paths: {
        '/a/{id}': { get: { responses: { '200': { description: 'ok' } } } },
        '/a/{other}': { get: { responses: { '200': { description: 'ok' } } } },
      },
    });
    const started = await startUpload(document);
    expect(started.state).toBe('running');
    const job = await settled(started.id);
    expect(job.state).toBe('ready');
    expect(job.result).toMatchObject({ title: '', operationCount: 1 });
    expect(job.result!.skipped.map((skipped) => skipped.path)).toEqual(['/a/{other}']);
    expect(job.result!.warnings.map((warning) => warning.pointer)).toEqual(
      expect.arrayContaining(['/info/title', '/paths/~1a~1{id}/get/parameters']),
    );
    // Nothing changes before it is applied.
    const before = await json<{ paging: { totalCount: number } }>(await server.api('/api/v1/apis'));
    const applied = await send(server, 'POST', `/api/v1/api-imports/${job.id}/apply`, {});
    expect(applied.status).toBe(201);
    const result = await json<{ api: { name: string; warningCount: number; skippedCount: number } }>(applied);
    // An untitled description is named after its file.
    expect(result.api).toMatchObject({ name: 'orders', skippedCount: 1 });
    const after = await json<{ paging: { totalCount: number } }>(await server.api('/api/v1/apis'));
    expect(after.paging.totalCount).toBe(before.paging.totalCount + 1);
    // An applied job is gone.
    await expectProblem(await server.api(`/api/v1/api-imports/${job.id}`), 404);
  });

  it('reports a refused document as a failed import with the problem', async () => {
    const job = await settled((await startUpload('{"name": "not an API"}')).id);
    expect(job).toMatchObject({ state: 'failed', problem: { status: 400, code: 'GH_ERR_INVALID_DOCUMENT' } });
    await expectProblem(
      await send(server, 'POST', `/api/v1/api-imports/${job.id}/apply`, {}),
      409,
      'GH_ERR_IMPORT_NOT_READY',
    );
  });

  it('cancels an import that is still loading', async () => {
    descriptions.handlers.set('/slow.json', (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"openapi": "3.0.3",');
      // Never finishes: the import waits until it is cancelled.
    });
    const response = await send(server, 'POST', '/api/v1/api-imports/from-url', {
      url: descriptions.url('/slow.json'),
      allowPrivateAddress: true,
    });
    const job = await json<ApiImportJob>(response);
    expect(job.state).toBe('running');
    expect((await server.api(`/api/v1/api-imports/${job.id}`, { method: 'DELETE' })).status).toBe(204);
    await expectProblem(await server.api(`/api/v1/api-imports/${job.id}`), 404);
    // The worker that was cancelled is replaced: the next import works.
    const next = await settled((await startUpload(openApiDocument({ serverUrl: '/after-cancel' }))).id);
    expect(next.state).toBe('ready');
  });

  it('reads at most four imports at once; cancelling one makes room', async () => {
    descriptions.handlers.set('/stalled.json', (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"openapi": "3.0.3",');
      // Never finishes: the imports wait until they are cancelled.
    });
    const startStalled = () =>
      send(server, 'POST', '/api/v1/api-imports/from-url', {
        url: descriptions.url('/stalled.json'),
        allowPrivateAddress: true,
      });
    const running: ApiImportJob[] = [];
    for (let index = 0; index < 4; index++) {
      const response = await startStalled();
      expect(response.status).toBe(202);
      running.push(await json<ApiImportJob>(response));
    }
    const refused = await expectProblem(await startStalled(), 429, 'GH_ERR_TOO_MANY_IMPORTS');
    expect(refused.detail).toContain('cancel one');
    for (const job of running) {
      expect((await server.api(`/api/v1/api-imports/${job.id}`, { method: 'DELETE' })).status).toBe(204);
    }
    const next = await settled((await startUpload(openApiDocument({ serverUrl: '/after-limit' }))).id);
    expect(next.state).toBe('ready');
    expect((await server.api(`/api/v1/api-imports/${next.id}`, { method: 'DELETE' })).status).toBe(204);
  });

  it('shows what a re-import would change before it applies, and restores an earlier revision with its passthrough', async () => {
    const api = await importApi(
      server,
      openApiDocument({
        title: 'Orders',
        serverUrl: '/revisions',
        paths: ['/orders', '/orders/{id}', '/legacy'],
      }),
    );
    const created = await send(server, 'POST', `/api/v1/apis/${api.id}/passthrough`, {
      operations: {
        'GET /orders': entry('https://orders.example.com'),
        'GET /legacy': entry('https://legacy.example.com'),
      },
    });
    expect(created.status).toBe(201);

    const started = await startUpload(
      openApiDocument({
        title: 'Orders',
        serverUrl: '/revisions',
        paths: ['/orders', '/orders/{orderId}', '/new'],
      }),
    );
    const job = await settled(started.id, `?apiId=${api.id}`);
    expect(job.existingApi).toMatchObject({ id: api.id, revision: 1 });
    expect(job.changes).toMatchObject({
      fromRevision: 1,
      added: ['GET /new'],
      removed: ['GET /legacy'],
      changed: [
        {
          before: 'GET /orders/{id}',
          after: 'GET /orders/{orderId}',
          changes: ['path /orders/{id} → /orders/{orderId}'],
        },
      ],
      droppedPassthroughEntries: [{ operation: 'GET /legacy' }],
    });
    // Applying against a revision that is not the current one is refused.
    await expectProblem(
      await send(server, 'POST', `/api/v1/api-imports/${job.id}/apply`, {
        apiId: api.id,
        expectedRevision: 7,
      }),
      409,
      'GH_ERR_API_CHANGED',
    );
    const applied = await send(server, 'POST', `/api/v1/api-imports/${job.id}/apply`, {
      apiId: api.id,
      expectedRevision: 1,
    });
    expect(applied.status).toBe(200);
    let passthrough = await json<Passthrough>(await server.api(`/api/v1/apis/${api.id}/passthrough`));
    expect(Object.keys(passthrough.operations)).toEqual(['GET /orders']);

    const revisions = await json<ApiRevisionList>(await server.api(`/api/v1/apis/${api.id}/revisions`));
    expect(revisions.data).toMatchObject([
      { revision: 2, current: true, restorable: false, hasPassthrough: false },
      { revision: 1, current: false, restorable: true, hasPassthrough: true },
    ]);
    const details = await json<{ warnings: unknown[]; skipped: unknown[] }>(
      await server.api(`/api/v1/apis/${api.id}/revisions/2`),
    );
    expect(details).toMatchObject({ warnings: [], skipped: [] });

    const preview = await json<{ added: string[]; removed: string[]; passthrough: string }>(
      await server.api(`/api/v1/apis/${api.id}/revisions/1/restore-preview`),
    );
    expect(preview).toMatchObject({ added: ['GET /legacy'], removed: ['GET /new'], passthrough: 'restored' });
    const restored = await send(server, 'POST', `/api/v1/apis/${api.id}/revisions/1/restore`, {
      expectedRevision: 2,
    });
    expect(restored.status).toBe(200);
    expect(await json(restored)).toMatchObject({ api: { revision: 3 }, passthrough: 'restored' });
    passthrough = await json<Passthrough>(await server.api(`/api/v1/apis/${api.id}/passthrough`));
    expect(Object.keys(passthrough.operations).sort()).toEqual(['GET /legacy', 'GET /orders']);
    const document = await (await server.api(`/api/v1/apis/${api.id}/document`)).text();
    expect(document).toContain('/legacy');
    const after = await json<ApiRevisionList>(await server.api(`/api/v1/apis/${api.id}/revisions`));
    expect(after.data[0]).toMatchObject({ revision: 3, current: true, restoredFrom: 1 });
    expect(after.data[1]).toMatchObject({ revision: 2, hasPassthrough: true });
    await expectProblem(
      await send(server, 'POST', `/api/v1/apis/${api.id}/revisions/3/restore`, {}),
      409,
      'GH_ERR_REVISION_NOT_RESTORABLE',
    );
    await expectProblem(await server.api(`/api/v1/apis/${api.id}/revisions/99`), 404);
  });
});
