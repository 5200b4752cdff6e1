import { storedDocumentNames } from '../../helpers/stored-config.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../src-server/core/audit/audit-entry.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';
import {
  entry,
  expectProblem,
  importApi,
  json,
  openApiDocument,
  sample,
  send,
  type ApiDto,
} from './helpers.js';

describe('API definitions', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ settings: { 'Flags:EnableServiceApiAuditLogRoute': true } });
  });
  afterAll(() => server.close());

  const documentFiles = () => storedDocumentNames(server.gatehouse.database);

  it('imports the three samples (JSON, YAML, Swagger 2.0) with their base paths and operations', async () => {
    const orders = await importApi(server, await sample('orders-api.openapi.yaml'), {
      contentType: 'application/yaml',
    });
    expect(orders).toMatchObject({
      name: 'Orders API',
      basePath: '/orders-api/v1',
      revision: 1,
      agentGroupIds: ['default'],
    });
    expect(orders.operations.map((operation) => operation.key)).toContain('GET /orders/{orderId}');
    expect(
      orders.operations.find((operation) => operation.key === 'GET /orders/{orderId}')?.pathParameters,
    ).toEqual(['orderId']);
    const inventory = await importApi(server, await sample('inventory-api.openapi.json'));
    expect(inventory).toMatchObject({ basePath: '/inventory/v2', specVersion: '3.1' });
    const billing = await importApi(server, await sample('legacy-billing.swagger.yaml'), {
      contentType: 'text/yaml',
      query: 'name=Billing%20(old)',
    });
    expect(billing).toMatchObject({ name: 'Billing (old)', basePath: '/legacy/billing', specVersion: '2.0' });

    const list = await json<{ data: ApiDto[]; paging: { totalCount: number } }>(
      await server.api('/api/v1/apis'),
    );
    expect(list.data.map((api) => api.name)).toEqual(['Billing (old)', 'Inventory API', 'Orders API']);
    expect(list.data[0]).not.toHaveProperty('operations');
    const searched = await json<{ data: ApiDto[] }>(await server.api('/api/v1/apis?search=INVENTORY'));
    expect(searched.data.map((api) => api.id)).toEqual([inventory.id]);
    const byGroup = await json<{ data: ApiDto[] }>(await server.api('/api/v1/apis?agentGroupId=nope'));
    expect(byGroup.data).toEqual([]);

    const got = await json<ApiDto>(await server.api(`/api/v1/apis/${orders.id}`, { roles: ['Auditor'] }));
    expect(got.operations).toHaveLength(orders.operations.length);
    await expectProblem(await server.api('/api/v1/apis/nope'), 404);
  });

  it('returns the original document with its media type', async () => {
    const yaml = await sample('orders-api.openapi.yaml');
    // The same base path on the same group overlaps the first import.
    await expectProblem(
      await server.api('/api/v1/apis', {
        method: 'POST',
        headers: { 'Content-Type': 'application/vnd.oai.openapi' },
        body: new Uint8Array(yaml),
      }),
      409,
    );
    const otherGroup = await json<{ id: string }>(
      await send(server, 'POST', '/api/v1/agent-groups', { name: 'Documents', environmentId: 'development' }),
    );
    const copy = await importApi(server, yaml, {
      contentType: 'application/vnd.oai.openapi',
      query: `agentGroupId=${otherGroup.id}`,
    });
    const response = await server.api(`/api/v1/apis/${copy.id}/document`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/vnd.oai.openapi');
    expect(Buffer.from(await response.arrayBuffer()).equals(yaml)).toBe(true);
    // Stored gzip-compressed by the import worker (the main thread writes a tenth of the bytes), read back as sent.
    const stored = await server.gatehouse.database.db
      .selectFrom('api_documents')
      .select(['name', 'content'])
      .where('name', 'like', `${copy.id}.%`)
      .execute();
    expect(stored.map(({ name }) => name.replace(/^[^.]+\.[0-9a-f]+\./, '')).sort()).toEqual([
      'details.json',
      'yaml',
    ]);
    for (const { content } of stored) expect([...content.subarray(0, 2)]).toEqual([0x1f, 0x8b]);
    const head = await server.api(`/api/v1/apis/${copy.id}/document`, { method: 'HEAD' });
    expect(head.headers.get('content-length')).toBe(String(yaml.length));
    await expectProblem(await server.api('/api/v1/apis/nope/document'), 404);
  });

  it('answers invalid documents with 400 and errors keyed by JSON pointer', async () => {
    const syntax = await expectProblem(
      await server.api('/api/v1/apis', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{"openapi": "3.0.0",\n  "info": {,}}',
      }),
      400,
    );
    expect(syntax.errors).toEqual({ '': [expect.stringContaining('line 2, column 12')] });
    const yamlSyntax = await expectProblem(
      await server.api('/api/v1/apis', {
        method: 'POST',
        headers: { 'Content-Type': 'application/yaml' },
        body: 'openapi: 3.0.0\ninfo:\n  title: [x\n',
      }),
      400,
    );
    expect(yamlSyntax.errors!['']?.[0]).toMatch(/line \d+, column \d+/);
    const notOpenApi = await expectProblem(
      await server.api('/api/v1/apis', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'package.json', version: '1.0.0' }),
      }),
      400,
    );
    expect(notOpenApi.errors).toEqual({
      '/openapi': [expect.stringContaining('not an OpenAPI or Swagger document')],
    });
    const nothingToExpose = await expectProblem(
      await server.api('/api/v1/apis', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          openapi: '3.1.0',
          info: { title: 'Webhooks only', version: '1' },
          webhooks: {},
        }),
      }),
      400,
    );
    expect(Object.keys(nothingToExpose.errors!)).toEqual(['/paths']);
    await expectProblem(
      await server.api('/api/v1/apis', {
        method: 'POST',
        headers: { 'Content-Type': 'application/xml' },
        body: '<x/>',
      }),
      415,
    );
    await expectProblem(
      await server.api('/api/v1/apis', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '',
      }),
      400,
    );
    const unknownGroup = await expectProblem(
      await server.api('/api/v1/apis?agentGroupId=nope', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: openApiDocument({ serverUrl: '/nope' }),
      }),
      400,
    );
    expect(Object.keys(unknownGroup.errors!)).toEqual(['agentGroupId']);
  });

  it('refuses overlapping base paths on one agent group, at segment boundaries only (409)', async () => {
    const api = await importApi(
      server,
      openApiDocument({ title: 'Base', serverUrl: 'https://x.example.com/api' }),
    );
    const overlap = await expectProblem(
      await server.api('/api/v1/apis', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: openApiDocument({ title: 'Versioned', serverUrl: 'https://x.example.com/api/v2' }),
      }),
      409,
    );
    expect(overlap.detail).toContain("'Base'");
    expect(overlap.conflictingApi).toMatchObject({ id: api.id, basePath: '/api' });
    const sibling = await importApi(
      server,
      openApiDocument({ title: 'Sibling', serverUrl: 'https://x.example.com/apiv2' }),
    );
    expect(sibling.basePath).toBe('/apiv2');
    const other = await json<{ id: string }>(
      await send(server, 'POST', '/api/v1/agent-groups', {
        name: 'Other group',
        environmentId: 'development',
      }),
    );
    const elsewhere = await importApi(server, openApiDocument({ title: 'Elsewhere', serverUrl: '/api/v2' }), {
      query: `agentGroupId=${other.id}`,
    });
    // Moving it next to /api is refused like an import.
    await expectProblem(
      await send(server, 'PATCH', `/api/v1/apis/${elsewhere.id}`, { agentGroupIds: ['default', other.id] }),
      409,
    );
    // No stray document files from the refused imports: each API has its document and its revision's details.
    const files = (await documentFiles()).filter((file) => !file.startsWith('.'));
    const apis = await json<{ paging: { totalCount: number } }>(await server.api('/api/v1/apis'));
    expect(files.filter((file) => file.endsWith('.details.json'))).toHaveLength(apis.paging.totalCount);
    expect(files).toHaveLength(2 * apis.paging.totalCount);
  });

  it('modifies name, description and agent groups', async () => {
    const api = await importApi(server, openApiDocument({ title: 'Modifiable', serverUrl: '/modifiable' }));
    const group = await json<{ id: string }>(
      await send(server, 'POST', '/api/v1/agent-groups', { name: 'Second', environmentId: 'development' }),
    );
    const changed = await json<ApiDto & { description?: string }>(
      await send(server, 'PATCH', `/api/v1/apis/${api.id}`, {
        name: 'Renamed',
        description: 'Text',
        agentGroupIds: ['default', group.id],
      }),
    );
    expect(changed).toMatchObject({
      name: 'Renamed',
      description: 'Text',
      agentGroupIds: ['default', group.id],
    });
    const unknown = await expectProblem(
      await send(server, 'PATCH', `/api/v1/apis/${api.id}`, { agentGroupIds: ['nope'] }),
      400,
    );
    expect(Object.keys(unknown.errors!)).toEqual(['agentGroupIds']);
    await expectProblem(
      await send(server, 'PATCH', `/api/v1/apis/${api.id}`, { agentGroupIds: ['default', 'default'] }),
      400,
    );
    await expectProblem(await send(server, 'PATCH', `/api/v1/apis/${api.id}`, { basePath: '/x' }), 400);
    await expectProblem(await send(server, 'PATCH', '/api/v1/apis/nope', { name: 'x' }), 404);
  });

  it('refuses a legacy agent group for an API with a passthrough (422), and allows it without one', async () => {
    const legacy = await json<{ id: string }>(
      await send(server, 'POST', '/api/v1/agent-groups', {
        name: 'Legacy',
        environmentId: 'development',
        platform: 'legacy',
      }),
    );
    const api = await importApi(server, openApiDocument({ title: 'Forwarded', serverUrl: '/forwarded' }));
    expect(
      (await send(server, 'POST', `/api/v1/apis/${api.id}/passthrough`, { allOperations: entry() })).status,
    ).toBe(201);
    const refused = await expectProblem(
      await send(server, 'PATCH', `/api/v1/apis/${api.id}`, { agentGroupIds: ['default', legacy.id] }),
      422,
    );
    expect(refused.detail).toContain('Passthrough is supported only on cross-platform agents');
    const plain = await importApi(
      server,
      openApiDocument({ title: 'Not forwarded', serverUrl: '/not-forwarded' }),
    );
    expect(
      (await send(server, 'PATCH', `/api/v1/apis/${plain.id}`, { agentGroupIds: [legacy.id] })).status,
    ).toBe(200);
  });

  it('deletes an API with its passthrough and its document, audited with both resources', async () => {
    const api = await importApi(server, openApiDocument({ title: 'Doomed', serverUrl: '/doomed' }));
    const created = await json<{ passthrough: { id: string } }>(
      await send(server, 'POST', `/api/v1/apis/${api.id}/passthrough`, { allOperations: entry() }),
    );
    const before = await documentFiles();
    expect(before.some((file) => file.startsWith(api.id))).toBe(true);
    expect((await send(server, 'DELETE', `/api/v1/apis/${api.id}`)).status).toBe(204);
    expect((await documentFiles()).some((file) => file.startsWith(api.id))).toBe(false);
    await expectProblem(await server.api(`/api/v1/apis/${api.id}/passthrough`), 404);
    await expectProblem(await send(server, 'DELETE', `/api/v1/apis/${api.id}`), 404);
    const log = await json<{ items: AuditEntry[] }>(
      await server.api('/api/v1/audit-log?actionName=Apis.Delete', { roles: ['Auditor'] }),
    );
    expect(log.items.map((item) => item.statusCode)).toEqual([404, 204]);
    expect(log.items[1]).toMatchObject({
      resources: [
        { type: 'Api', id: api.id, name: 'Doomed' },
        { type: 'Passthrough', id: created.passthrough.id },
      ],
      agentGroup: { id: 'default', name: 'Default' },
    });
  });

  it('audits imports as Apis.Import with the new id and base path', async () => {
    const api = await importApi(server, openApiDocument({ title: 'Audited import', serverUrl: '/audited' }), {
      query: 'name=Audited',
    });
    const log = await json<{ items: AuditEntry[] }>(
      await server.api('/api/v1/audit-log?actionName=Apis.Import', { roles: ['Auditor'] }),
    );
    expect(log.items[0]).toMatchObject({
      statusCode: 201,
      resources: [{ type: 'Api', id: api.id, name: 'Audited' }],
      parameters: { id: api.id, name: 'Audited', basePath: '/audited', operationCount: 2 },
    });
  });
});
