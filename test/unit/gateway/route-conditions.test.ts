import { describe, expect, it } from 'vitest';
import { buildApiRoute } from '../../../src-server/gateway/runtime/api-route.js';
import { resolveRoute, type ApiRoute } from '../../../src-server/gateway/runtime/route-table.js';
import { compileForwardingEntry } from '../../../src-server/core/passthrough/forwarding/index.js';
import { parseRequestTarget } from '../../../src-server/gateway/handler/request-target.js';
import { parseApiDefinition } from '../../../src-server/control/apis/openapi/index.js';
import { operationRecords } from '../../../src-server/control/apis/revision-commit.js';
import type { ApiRecord, PassthroughEntry } from '../../../src-server/core/model/config-model.js';
import { openEntry } from '../../../src-server/core/passthrough/sealed-headers.js';

const NO_SEALED_VALUES = {
  unseal(): string {
    throw new Error('no sealed values in this test');
  },
};
const ok = { '200': { description: 'ok' } };

/** The route of a description's operations, every operation with its own entry (section 2 names it). */
function routeOf(paths: Record<string, unknown>, withAllOperations = false): ApiRoute {
  const parsed = parseApiDefinition(
    JSON.stringify({ openapi: '3.0.3', info: { title: 'T', version: '1' }, paths }),
  );
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  const operations = operationRecords(parsed.definition);
  const record: ApiRecord = {
    id: 'a',
    name: 'a',
    version: '1',
    specVersion: '3.0',
    basePath: '/svc',
    agentGroupIds: ['default'],
    documentFile: 'x',
    operations,
    revision: 1,
    importedAt: '',
    updatedAt: '',
  };
  const entries = Object.fromEntries(
    operations.map((operation) => [
      operation.key,
      { target: { section1: 'https://t.example', section2: 'x', section3: '' } } as PassthroughEntry,
    ]),
  );
  const allOperations = withAllOperations
    ? {
        allOperations: {
          target: { section1: 'https://t.example', section2: 'all', section3: '' },
        } as PassthroughEntry,
      }
    : {};
  return buildApiRoute(
    record,
    { id: 'p', apiId: 'a', ...allOperations, operations: entries, revision: 1, createdAt: '', updatedAt: '' },
    {},
    (candidate, context) => compileForwardingEntry(candidate, { ...context, env: { variables: {} } }),
    (candidate) => openEntry(candidate, NO_SEALED_VALUES),
  ).api;
}

function resolve(api: ApiRoute, method: string, url: string, headers: Record<string, string> = {}) {
  const target = parseRequestTarget(url);
  if (!target.ok) throw new Error(target.detail);
  return resolveRoute([api], method, target, headers);
}

const operationOf = (resolution: ReturnType<typeof resolve>) =>
  resolution.kind === 'endpoint' ? resolution.endpoint.operation : resolution.kind;

describe('operations told apart by a header or a query value', () => {
  const header = (value: string) => [
    { name: 'X-Amz-Target', in: 'header', required: true, schema: { enum: [value] } },
  ];
  const query = (value: string) => [
    { name: 'Action', in: 'query', required: true, schema: { enum: [value] } },
  ];
  const api = routeOf({
    '/#X-Amz-Target=SQS.AddPermission': { post: { parameters: header('SQS.AddPermission'), responses: ok } },
    '/#X-Amz-Target=SQS.DeleteQueue': { post: { parameters: header('SQS.DeleteQueue'), responses: ok } },
    '/#Action=UntagQueue': { get: { parameters: query('UntagQueue'), responses: ok } },
    '/#Action=TagQueue': { get: { parameters: query('TagQueue'), responses: ok } },
    '/tags/{arn}': { parameters: [{ name: 'arn', in: 'path', required: true }], delete: { responses: ok } },
    '/tags/{arn}#tagKeys': {
      parameters: [{ name: 'arn', in: 'path', required: true }],
      delete: { parameters: [{ name: 'tagKeys', in: 'query', required: true }], responses: ok },
    },
  });

  it('routes by the header value', () => {
    expect(operationOf(resolve(api, 'POST', '/svc/', { 'x-amz-target': 'SQS.DeleteQueue' }))).toBe(
      'POST /#X-Amz-Target=SQS.DeleteQueue',
    );
    expect(operationOf(resolve(api, 'POST', '/svc/', { 'x-amz-target': 'SQS.AddPermission' }))).toBe(
      'POST /#X-Amz-Target=SQS.AddPermission',
    );
  });

  it('routes by the query value', () => {
    expect(operationOf(resolve(api, 'GET', '/svc/?Version=1&Action=TagQueue'))).toBe('GET /#Action=TagQueue');
    expect(operationOf(resolve(api, 'GET', '/svc/?Action=UntagQueue'))).toBe('GET /#Action=UntagQueue');
  });

  it('answers 404 when no operation on the URL asks for what the request carries', () => {
    expect(resolve(api, 'POST', '/svc/', { 'x-amz-target': 'SQS.Other' }).kind).toBe('unmatched');
    expect(resolve(api, 'POST', '/svc/').kind).toBe('unmatched');
    expect(resolve(api, 'GET', '/svc/?Action=Nope').kind).toBe('unmatched');
  });

  it('prefers the operation with conditions over the plain one, which takes the rest', () => {
    expect(operationOf(resolve(api, 'DELETE', '/svc/tags/arn-1?tagKeys=a'))).toBe(
      'DELETE /tags/{arn}#tagKeys',
    );
    const plain = resolve(api, 'DELETE', '/svc/tags/arn-1');
    expect(operationOf(plain)).toBe('DELETE /tags/{arn}');
    expect(plain.kind === 'endpoint' && plain.pathParameters).toEqual({ arn: 'arn-1' });
  });

  it('still answers 405 with every method of the URL', () => {
    expect(resolve(api, 'PUT', '/svc/')).toMatchObject({
      kind: 'method-not-allowed',
      allow: ['POST', 'GET'],
    });
  });
});

describe('operations with conditions next to All operations', () => {
  const api = routeOf(
    {
      '/#Action=TagQueue': {
        get: {
          parameters: [{ name: 'Action', in: 'query', required: true, schema: { enum: ['TagQueue'] } }],
          responses: ok,
        },
      },
    },
    true,
  );

  it('gives All operations what no operation takes: unmet conditions and other methods', () => {
    expect(operationOf(resolve(api, 'GET', '/svc/?Action=TagQueue'))).toBe('GET /#Action=TagQueue');
    expect(operationOf(resolve(api, 'GET', '/svc/?Action=Other'))).toBe('*');
    expect(operationOf(resolve(api, 'POST', '/svc/'))).toBe('*');
    expect(resolve(api, 'TRACE', '/svc/').kind).toBe('method-not-allowed');
  });
});

describe('templates that match the same requests, with different methods', () => {
  const api = routeOf({
    '/users/{username}/attestations/{attestation_id}': {
      parameters: [
        { name: 'username', in: 'path', required: true },
        { name: 'attestation_id', in: 'path', required: true },
      ],
      delete: { responses: ok },
    },
    '/users/{username}/attestations/{subject_digest}': {
      parameters: [
        { name: 'username', in: 'path', required: true },
        { name: 'subject_digest', in: 'path', required: true },
      ],
      get: { responses: ok },
    },
  });

  it('routes each method to its operation, with its own parameter names', () => {
    const get = resolve(api, 'GET', '/svc/users/octo/attestations/sha256:abc');
    expect(get).toMatchObject({
      kind: 'endpoint',
      endpoint: { operation: 'GET /users/{username}/attestations/{subject_digest}' },
      pathParameters: { username: 'octo', subject_digest: 'sha256:abc' },
    });
    const remove = resolve(api, 'DELETE', '/svc/users/octo/attestations/42');
    expect(remove).toMatchObject({
      kind: 'endpoint',
      endpoint: { operation: 'DELETE /users/{username}/attestations/{attestation_id}' },
      pathParameters: { username: 'octo', attestation_id: '42' },
    });
    expect(resolve(api, 'PUT', '/svc/users/octo/attestations/42')).toMatchObject({
      kind: 'method-not-allowed',
      allow: ['DELETE', 'GET'],
    });
  });
});
