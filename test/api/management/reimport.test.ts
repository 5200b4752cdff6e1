import { storedDocumentNames } from '../../helpers/stored-config.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';
import type { ApiReimportResult as ReimportResult } from '../../../src-server/core/contracts/index.js';
import {
  entry,
  expectProblem,
  importApi,
  json,
  openApiDocument,
  send,
  type ApiDto,
  type Passthrough,
} from './helpers.js';

describe('re-importing an API definition', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  function reimport(id: string, document: string, query = ''): Promise<Response> {
    return server.api(`/api/v1/apis/${id}/document${query}`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: document,
    });
  }

  it('keeps the entries of operations that still exist, drops the others and reports them', async () => {
    const api = await importApi(
      server,
      openApiDocument({
        title: 'Orders',
        serverUrl: '/orders',
        paths: ['/orders', '/orders/{id}', '/legacy'],
      }),
    );
    const created = await send(server, 'POST', `/api/v1/apis/${api.id}/passthrough`, {
      allOperations: entry('https://all.example.com'),
      operations: {
        'GET /orders': entry('https://backend.example.com', {
          target: { section1: 'https://backend.example.com', section3: 'list' },
        }),
        'GET /orders/{id}': entry('https://backend.example.com', {
          target: { section1: 'https://backend.example.com', section3: 'one/{{#api.OperationPath.id}}' },
        }),
        'GET /legacy': entry(),
      },
    });
    expect(created.status).toBe(201);

    const next = openApiDocument({
      title: 'Orders v2',
      serverUrl: '/orders',
      paths: ['/orders', '/orders/{orderId}', '/new'],
    });
    const response = await reimport(api.id, next);
    const result = await json<ReimportResult>(response);
    expect(response.status).toBe(200);
    expect(result.api).toMatchObject({ name: 'Orders', revision: 2, basePath: '/orders' });
    expect(result.kept).toEqual(['GET /orders', 'GET /orders/{orderId}']);
    expect(result.added).toEqual(['GET /new']);
    expect(result.removed).toEqual(['GET /legacy']);
    // The renamed parameter's entry refers to {id}, which no longer exists: it can't be kept.
    expect(result.droppedPassthroughEntries).toEqual([
      { operation: 'GET /orders/{id}', reason: expect.stringContaining('section 3, position') },
      { operation: 'GET /legacy', reason: 'the operation is no longer in the API' },
    ]);

    const passthrough = await json<Passthrough>(await server.api(`/api/v1/apis/${api.id}/passthrough`));
    expect(Object.keys(passthrough.operations)).toEqual(['GET /orders']);
    expect(passthrough.allOperations).toBeDefined();
    expect(passthrough.revision).toBe(2);
    // Both revisions keep their document and details; the first also the passthrough configuration it had.
    const own = (await storedDocumentNames(server.gatehouse.database)).filter((file) =>
      file.startsWith(api.id),
    );
    expect(own.filter((file) => file.endsWith('.details.json'))).toHaveLength(2);
    expect(own.filter((file) => file.endsWith('.passthrough.json'))).toHaveLength(1);
    expect(own).toHaveLength(5);
    const document = await (await server.api(`/api/v1/apis/${api.id}/document`)).text();
    expect(document).toBe(next);
  });

  it('keeps an entry under its new key when only a parameter name changed and its templates do not use it', async () => {
    const api = await importApi(
      server,
      openApiDocument({ title: 'Items', serverUrl: '/items', paths: ['/items/{id}'] }),
    );
    await send(server, 'POST', `/api/v1/apis/${api.id}/passthrough`, {
      operations: {
        'GET /items/{id}': entry('https://items.example.com', {
          target: { section1: 'https://items.example.com', section3: 'fixed' },
        }),
      },
    });
    const result = await json<ReimportResult>(
      await reimport(
        api.id,
        openApiDocument({ title: 'Items', serverUrl: '/items', paths: ['/items/{itemId}'] }),
        '?name=Items%202',
      ),
    );
    expect(result.api.name).toBe('Items 2');
    expect(result.kept).toEqual(['GET /items/{itemId}']);
    expect(result.droppedPassthroughEntries).toEqual([]);
    const passthrough = await json<Passthrough>(await server.api(`/api/v1/apis/${api.id}/passthrough`));
    expect(passthrough.operations['GET /items/{itemId}']?.target.section3).toBe('fixed');
  });

  it('refuses invalid or overlapping new versions and unknown APIs, changing nothing', async () => {
    const api = await importApi(server, openApiDocument({ title: 'Stable', serverUrl: '/stable' }));
    await importApi(server, openApiDocument({ title: 'Neighbour', serverUrl: '/neighbour' }));
    const invalid = await expectProblem(await reimport(api.id, '{"openapi": "3.0.0"'), 400);
    expect(Object.keys(invalid.errors!)).toEqual(['']);
    const overlap = await expectProblem(
      await reimport(api.id, openApiDocument({ serverUrl: '/neighbour/v2' })),
      409,
    );
    expect(overlap.detail).toContain("'Neighbour'");
    await expectProblem(await reimport('nope', openApiDocument()), 404);
    const unchanged = await json<ApiDto>(await server.api(`/api/v1/apis/${api.id}`));
    expect(unchanged).toMatchObject({ revision: 1, basePath: '/stable' });
    const files = await storedDocumentNames(server.gatehouse.database);
    expect(files.filter((file) => file.startsWith(api.id))).toHaveLength(2);
  });
});
