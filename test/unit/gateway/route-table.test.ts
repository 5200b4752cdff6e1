import { describe, expect, it } from 'vitest';
import { buildApiRoute } from '../../../src-server/gateway/runtime/api-route.js';
import { resolveRoute, type ApiRoute } from '../../../src-server/gateway/runtime/route-table.js';
import { compileForwardingEntry } from '../../../src-server/core/passthrough/forwarding/index.js';
import { parseRequestTarget } from '../../../src-server/gateway/handler/request-target.js';
import type {
  ApiRecord,
  HttpMethodName,
  PassthroughEntry,
  PassthroughRecord,
} from '../../../src-server/core/model/config-model.js';
import { openEntry } from '../../../src-server/core/passthrough/sealed-headers.js';

/** The entries of these tests hold no sealed header values: nothing is ever unsealed. */
const NO_SEALED_VALUES = {
  unseal(): string {
    throw new Error('no sealed values in this test');
  },
};

function api(basePath: string, keys: string[]): ApiRecord {
  return {
    id: basePath,
    name: basePath,
    version: '1',
    specVersion: '3.1',
    basePath,
    agentGroupIds: ['default'],
    documentFile: 'x',
    operations: keys.map((key) => {
      const [method, path] = key.split(' ') as [HttpMethodName, string];
      return { key, method, path, pathParameters: [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!) };
    }),
    revision: 1,
    importedAt: '',
    updatedAt: '',
  };
}

const entry = (section2: string) =>
  ({ target: { section1: 'https://t.example', section2, section3: '' } }) as PassthroughEntry;

function route(record: ApiRecord, entries: { all?: boolean; ops?: string[] }): ApiRoute {
  const passthrough: PassthroughRecord = {
    id: 'p',
    apiId: record.id,
    ...(entries.all ? { allOperations: entry('all') } : {}),
    operations: Object.fromEntries((entries.ops ?? []).map((key) => [key, entry(key)])),
    revision: 1,
    createdAt: '',
    updatedAt: '',
  };
  return buildApiRoute(
    record,
    passthrough,
    {},
    (candidate, context) => compileForwardingEntry(candidate, { ...context, env: { variables: {} } }),
    (candidate) => openEntry(candidate, NO_SEALED_VALUES),
  ).api;
}

function resolve(apis: ApiRoute[], method: string, url: string) {
  const target = parseRequestTarget(url);
  if (!target.ok) throw new Error(target.detail);
  return resolveRoute(apis, method, target);
}

describe('route resolution', () => {
  const orders = route(
    api('/api', ['GET /orders/{id}', 'GET /orders/summary', 'DELETE /orders/{id}', 'GET /']),
    {
      ops: ['GET /orders/{id}', 'GET /orders/summary', 'DELETE /orders/{id}', 'GET /'],
    },
  );
  const v2 = route(api('/api/v2', ['GET /items']), { all: true });
  const apis = [v2, orders];

  it('picks the longest base path on segment boundaries', () => {
    expect(resolve(apis, 'GET', '/api/v2/anything')).toMatchObject({
      kind: 'endpoint',
      api: { id: '/api/v2' },
      endpoint: { operation: '*' },
    });
    expect(resolve(apis, 'GET', '/api/orders/1')).toMatchObject({ kind: 'endpoint', api: { id: '/api' } });
    expect(resolve(apis, 'GET', '/apiv2/x')).toEqual({ kind: 'unmatched', api: undefined });
    expect(resolve(apis, 'GET', '/api/v2')).toMatchObject({
      kind: 'endpoint',
      api: { id: '/api/v2' },
      operationPath: '',
    });
  });

  it('prefers literal segments over parameters and gives the parameters', () => {
    expect(resolve(apis, 'GET', '/api/orders/summary')).toMatchObject({
      endpoint: { operation: 'GET /orders/summary' },
    });
    expect(resolve(apis, 'GET', '/api/orders/caf%C3%A9')).toMatchObject({
      endpoint: { operation: 'GET /orders/{id}' },
      pathParameters: { id: 'café' },
      operationPath: '/orders/caf%C3%A9',
    });
  });

  it('answers 405 with the methods of the matched path, 404 elsewhere', () => {
    expect(resolve(apis, 'POST', '/api/orders/1')).toMatchObject({
      kind: 'method-not-allowed',
      allow: ['GET', 'DELETE'],
    });
    // The most specific path decides (as in OpenAPI): DELETE is not defined for /orders/summary.
    expect(resolve(apis, 'DELETE', '/api/orders/summary')).toMatchObject({
      kind: 'method-not-allowed',
      allow: ['GET'],
    });
    expect(resolve(apis, 'GET', '/api/nothing/here')).toMatchObject({
      kind: 'unmatched',
      api: { id: '/api' },
    });
    expect(resolve(apis, 'GET', '/api/')).toMatchObject({
      kind: 'endpoint',
      endpoint: { operation: 'GET /' },
    });
  });

  it('lets operation entries win over All operations, which takes the rest but not TRACE', () => {
    const mixed = route(api('/m', ['GET /x/{id}', 'POST /x/{id}']), { all: true, ops: ['GET /x/{id}'] });
    expect(resolve([mixed], 'GET', '/m/x/1')).toMatchObject({ endpoint: { operation: 'GET /x/{id}' } });
    expect(resolve([mixed], 'GET', '/m/x/1')).toMatchObject({ endpoint: { viaAllOperations: false } });
    // All operations serves an operation of the document without an entry: the record names what matched.
    expect(resolve([mixed], 'POST', '/m/x/1')).toMatchObject({
      endpoint: { operation: 'POST /x/{id}', viaAllOperations: true },
      pathParameters: {},
    });
    expect(resolve([mixed], 'DELETE', '/m/x/1')).toMatchObject({
      endpoint: { operation: '*', viaAllOperations: true },
    });
    expect(resolve([mixed], 'PATCH', '/m/not/an/operation?q=1')).toMatchObject({
      endpoint: { operation: '*', viaAllOperations: true },
      operationPath: '/not/an/operation',
    });
    expect(resolve([mixed], 'TRACE', '/m/x/1')).toMatchObject({ kind: 'method-not-allowed' });
  });
});
