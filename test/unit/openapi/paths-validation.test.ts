import { describe, expect, it } from 'vitest';
import { parseApiDefinition } from '../../../src-server/control/apis/openapi/index.js';
import {
  expectIssue,
  openApi30,
  openApi31,
  parseErrors,
  parseIssues,
  parseOk,
  swagger20,
  withPaths,
} from './helpers.js';

const ok = { '200': { description: 'ok' } };
const idParameter = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
/** A working operation, so that a document with one broken path still has something to import. */
const healthy = { '/health': { get: { responses: ok } } };

describe('paths object', () => {
  it('refuses a document without paths, or whose paths is not an object', () => {
    expectIssue(parseErrors(openApi30({ paths: undefined })), '/paths', 'no paths');
    expectIssue(parseErrors(swagger20({ paths: undefined })), '/paths', 'no paths');
    expectIssue(parseErrors(openApi31({ paths: undefined })), '/paths', 'no paths');
    expectIssue(parseErrors(openApi30({ paths: [] })), '/paths', 'found array');
    expectIssue(parseErrors(openApi30({ paths: null })), '/paths', 'found null');
  });

  it('imports a document without operations (All operations can still forward), with a warning', () => {
    expectIssue(parseIssues(withPaths({})), '/paths', 'no operations: the API has its base path only');
    expectIssue(parseIssues(withPaths({ '/a': { summary: 'Nothing yet' } })), '/paths', 'no operations');
    expectIssue(
      parseIssues(withPaths({ '/a': { get: null } })),
      '/paths',
      'none of its 1 operation(s) can be exposed',
    );
  });

  it('imports a template that uses a parameter twice, with a warning', () => {
    const definition = parseOk(withPaths({ '/loc/{location}/x/{location}': { get: { responses: ok } } }));
    expect(definition.operations[0]?.pathParameters).toEqual(['location']);
    expectIssue(definition.warnings, '/paths/~1loc~1{location}~1x~1{location}', 'appears more than once');
  });

  it('skips the operations of path keys that do not start with "/", ignores x- extensions', () => {
    const definition = parseOk(
      withPaths({ orders: { get: { responses: ok } }, 'x-internal': { anything: true }, ...healthy }),
    );
    expect(definition.operations.map((operation) => operation.path)).toEqual(['/health']);
    expectIssue(definition.warnings, '/paths/orders', 'must start with "/"');
    expect(definition.skipped).toEqual([
      {
        method: 'GET',
        path: 'orders',
        pointer: '/paths/orders/get',
        reason: expect.stringContaining('not a valid path template'),
      },
    ]);
  });

  it.each([
    ['/orders/{id', "'{' at position 8 is not closed"],
    ['/orders/id}', "'}' at position 10 has no matching '{'"],
    ['/orders/{{id}}', "'{' at position 9 is inside another parameter"],
    ['/orders/{}', "empty parameter name '{}' at position 8"],
    ['/files/{name}{ext}', 'directly follows another parameter'],
    ['/a/{b/c}', "'{' at position 3 is not closed"],
  ])('skips the operations of the malformed template %s, with the reason', (path, message) => {
    const definition = parseOk(withPaths({ [path]: { get: { responses: ok } }, ...healthy }));
    expectIssue(definition.warnings, `/paths/${path.replaceAll('/', '~1')}`, message);
    expect(definition.skipped.map((skipped) => skipped.path)).toEqual([path]);
  });

  it('routes same-shape templates with different methods (GitHub), with a warning', () => {
    const definition = parseOk(
      withPaths({
        '/users/{username}/attestations/{attestation_id}': {
          parameters: [
            { ...idParameter, name: 'username' },
            { ...idParameter, name: 'attestation_id' },
          ],
          delete: { responses: ok },
        },
        '/users/{username}/attestations/{subject_digest}': {
          parameters: [
            { ...idParameter, name: 'username' },
            { ...idParameter, name: 'subject_digest' },
          ],
          get: { responses: ok },
        },
      }),
    );
    expect(definition.operations.map((operation) => `${operation.method} ${operation.path}`)).toEqual([
      'DELETE /users/{username}/attestations/{attestation_id}',
      'GET /users/{username}/attestations/{subject_digest}',
    ]);
    expect(definition.operations[1]?.pathParameters).toEqual(['username', 'subject_digest']);
    expect(definition.skipped).toEqual([]);
    expectIssue(
      definition.warnings,
      '/paths/~1users~1{username}~1attestations~1{subject_digest}',
      'the gateway tells their operations apart by method',
    );
  });

  it('skips an operation the gateway cannot tell apart from an earlier one', () => {
    const definition = parseOk(
      withPaths({
        '/orders/{id}': { get: { parameters: [idParameter], responses: ok } },
        '/orders/{orderId}': {
          get: { parameters: [{ ...idParameter, name: 'orderId' }], responses: ok },
          put: { parameters: [{ ...idParameter, name: 'orderId' }], responses: ok },
        },
      }),
    );
    expect(definition.operations.map((operation) => operation.method)).toEqual(['GET', 'PUT']);
    expect(definition.skipped).toEqual([
      {
        method: 'GET',
        path: '/orders/{orderId}',
        pointer: '/paths/~1orders~1{orderId}/get',
        reason:
          "the gateway can't tell it apart from GET /orders/{id}: same method, paths that match the same requests",
      },
    ]);
  });

  it('accepts concrete paths beside templated ones', () => {
    const definition = parseOk(
      withPaths({
        '/users/{id}': { parameters: [idParameter], get: { responses: ok } },
        '/users/me': { get: { responses: ok } },
      }),
    );
    expect(definition.operations).toHaveLength(2);
    expect(definition.skipped).toEqual([]);
  });

  it('accepts mixed segments and lists path parameters in template order', () => {
    const definition = parseOk(
      withPaths({
        '/reports/{year}-{month}/{name}.{ext}': {
          parameters: ['year', 'month', 'name', 'ext'].map((name) => ({ ...idParameter, name })),
          get: { responses: ok },
        },
      }),
    );
    expect(definition.operations[0]?.pathParameters).toEqual(['year', 'month', 'name', 'ext']);
  });

  it('warns about path items without operations', () => {
    const definition = parseOk(withPaths({ '/a': { summary: 'Nothing yet' }, ...healthy }));
    expectIssue(definition.warnings, '/paths/~1a', 'has no operations');
  });
});

describe('path keys with a query or fragment part', () => {
  const target = (value: string) => ({
    name: 'X-Amz-Target',
    in: 'header',
    required: true,
    schema: { type: 'string', enum: [value] },
  });
  const action = (value: string) => ({
    name: 'Action',
    in: 'query',
    required: true,
    schema: { type: 'string', enum: [value] },
  });

  it('reads AWS JSON-protocol operations as header conditions', () => {
    const definition = parseOk(
      withPaths({
        '/#X-Amz-Target=SQS.AddPermission': {
          post: { parameters: [target('SQS.AddPermission')], responses: ok },
        },
        '/#X-Amz-Target=SQS.DeleteQueue': {
          post: { parameters: [target('SQS.DeleteQueue')], responses: ok },
        },
      }),
    );
    expect(definition.operations.map((operation) => [operation.path, operation.requestMatch])).toEqual([
      [
        '/#X-Amz-Target=SQS.AddPermission',
        { headers: [{ name: 'x-amz-target', value: 'SQS.AddPermission' }] },
      ],
      ['/#X-Amz-Target=SQS.DeleteQueue', { headers: [{ name: 'x-amz-target', value: 'SQS.DeleteQueue' }] }],
    ]);
    expect(definition.skipped).toEqual([]);
  });

  it('reads AWS query-protocol and Azure operations as query conditions', () => {
    const definition = parseOk(
      withPaths({
        '/#Action=UntagQueue': { get: { parameters: [action('UntagQueue')], responses: ok } },
        '/{path}/acl#op=REVOKEACE': {
          patch: {
            parameters: [
              { ...idParameter, name: 'path' },
              { name: 'op', in: 'query', schema: { type: 'string' } },
            ],
            responses: ok,
          },
        },
        '/{container}?restype=container&comp=list': {
          get: { parameters: [{ ...idParameter, name: 'container' }], responses: ok },
        },
      }),
    );
    expect(definition.operations.map((operation) => operation.requestMatch)).toEqual([
      { query: [{ name: 'Action', value: 'UntagQueue' }] },
      { query: [{ name: 'op', value: 'REVOKEACE' }] },
      {
        query: [
          { name: 'restype', value: 'container' },
          { name: 'comp', value: 'list' },
        ],
      },
    ]);
    expect(definition.operations[1]?.pathParameters).toEqual(['path']);
  });

  it('reads a name alone as a parameter that must be present, beside the plain path', () => {
    const arn = { ...idParameter, name: 'resourceArn' };
    const definition = parseOk(
      withPaths({
        '/tags/{resourceArn}': { parameters: [arn], delete: { responses: ok }, get: { responses: ok } },
        '/tags/{resourceArn}#tagKeys': {
          parameters: [arn],
          delete: {
            parameters: [{ name: 'tagKeys', in: 'query', required: true, schema: { type: 'array' } }],
            responses: ok,
          },
        },
      }),
    );
    expect(definition.operations.map((operation) => `${operation.method} ${operation.path}`)).toEqual([
      'DELETE /tags/{resourceArn}',
      'GET /tags/{resourceArn}',
      'DELETE /tags/{resourceArn}#tagKeys',
    ]);
    expect(definition.operations[2]?.requestMatch).toEqual({ query: [{ name: 'tagKeys' }] });
  });

  it('warns when the name after "#" is no declared parameter, and reads it as a query parameter', () => {
    const definition = parseOk(withPaths({ '/#Action=List': { get: { responses: ok } } }));
    expect(definition.operations[0]?.requestMatch).toEqual({ query: [{ name: 'Action', value: 'List' }] });
    expectIssue(definition.warnings, '/paths/~1#Action=List/get/parameters', 'no declared parameter');
  });

  it('skips operations told apart by a cookie, and those asking the same as an earlier one', () => {
    const definition = parseOk(
      withPaths({
        '/a#session=x': {
          get: { parameters: [{ name: 'session', in: 'cookie', schema: { type: 'string' } }], responses: ok },
        },
        '/#Action=List': { get: { parameters: [action('List')], responses: ok } },
        '/?Action=List': { get: { parameters: [action('List')], responses: ok } },
      }),
    );
    expect(definition.operations.map((operation) => operation.path)).toEqual(['/#Action=List']);
    expect(definition.skipped.map((skipped) => [skipped.path, skipped.reason])).toEqual([
      [
        '/a#session=x',
        expect.stringContaining('cookie parameter "session", which the gateway cannot route on'),
      ],
      ['/?Action=List', expect.stringContaining('same conditions (query Action=List)')],
    ]);
  });
});

describe('path items and operations', () => {
  it('lists every supported method in document order, upper-cased', () => {
    const methods = ['trace', 'get', 'put', 'post', 'delete', 'options', 'head', 'patch'];
    const pathItem = Object.fromEntries(methods.map((method) => [method, { responses: ok }]));
    const definition = parseOk(
      withPaths({ '/a': { summary: 'All', description: 'd', 'x-owner': 'me', ...pathItem } }),
    );
    expect(definition.operations.map((operation) => operation.method)).toEqual(
      methods.map((method) => method.toUpperCase()),
    );
  });

  it('reads an upper-case method key as the method, with a warning', () => {
    const definition = parseOk(withPaths({ '/a': { GET: { responses: ok } } }));
    expect(definition.operations.map((operation) => operation.method)).toEqual(['GET']);
    expectIssue(definition.warnings, '/paths/~1a/GET', 'lowercase');
  });

  it.each([
    ['an unsupported method', { connect: { responses: ok } }, '/paths/~1a/connect', 'does not expose'],
    ['QUERY before 3.2', { query: { responses: ok } }, '/paths/~1a/query', 'does not expose'],
    [
      'an operation that is not an object',
      { get: 'yes' },
      '/paths/~1a/get',
      'an operation must be an object, found string',
    ],
    ['a null operation', { get: null }, '/paths/~1a/get', 'found null'],
  ])('skips %s, with the reason', (_name, pathItem, pointer, message) => {
    expectIssue(parseIssues(withPaths({ '/a': pathItem, ...healthy })), pointer, message);
  });

  it('skips QUERY and additionalOperations of OpenAPI 3.2, which the gateway does not expose', () => {
    const definition = parseOk(
      withPaths(
        {
          '/a': {
            get: { responses: ok },
            query: { responses: ok },
            additionalOperations: { COPY: { responses: ok } },
          },
        },
        openApi31({ openapi: '3.2.0' }),
      ),
    );
    expect(definition.operations.map((operation) => operation.method)).toEqual(['GET']);
    expect(definition.skipped.map((skipped) => `${skipped.method} ${skipped.pointer}`)).toEqual([
      'QUERY /paths/~1a/query',
      'COPY /paths/~1a/additionalOperations/COPY',
    ]);
  });

  it.each([
    [
      'missing responses',
      { get: {} },
      '/paths/~1a/get/responses',
      'missing: an operation should declare its responses',
    ],
    ['empty responses', { get: { responses: {} } }, '/paths/~1a/get/responses', 'at least one response'],
    [
      'only extension responses',
      { get: { responses: { 'x-a': 1 } } },
      '/paths/~1a/get/responses',
      'at least one response',
    ],
    ['responses as an array', { get: { responses: [ok] } }, '/paths/~1a/get/responses', 'found array'],
    [
      'a bad status key',
      { get: { responses: { '20': { description: 'x' } } } },
      '/paths/~1a/get/responses/20',
      'should be an HTTP status code',
    ],
    [
      'a response that is not an object',
      { get: { responses: { '200': 'OK' } } },
      '/paths/~1a/get/responses/200',
      'should be an object',
    ],
    [
      'an empty operationId',
      { get: { operationId: '', responses: ok } },
      '/paths/~1a/get/operationId',
      'non-empty string',
    ],
    [
      'a numeric operationId',
      { get: { operationId: 7, responses: ok } },
      '/paths/~1a/get/operationId',
      'found 7',
    ],
  ])('imports %s with a warning', (_name, pathItem, pointer, message) => {
    const definition = parseOk(withPaths({ '/a': pathItem }));
    expect(definition.operations).toHaveLength(1);
    expectIssue(definition.warnings, pointer, message);
  });

  it('skips a path item that is not an object', () => {
    expectIssue(
      parseIssues(withPaths({ '/a': null, ...healthy })),
      '/paths/~1a',
      'a path item must be an object of operations, found null',
    );
    expectIssue(parseIssues(withPaths({ '/a': ['get'], ...healthy })), '/paths/~1a', 'found array');
  });

  it('accepts status ranges in 3.x, warns about them in 2.0, and accepts missing responses in 3.1', () => {
    parseOk(
      withPaths({
        '/a': { get: { responses: { '2XX': { description: 'ok' }, default: { description: 'e' } } } },
      }),
    );
    const swagger = swagger20({ paths: { '/a': { get: { responses: { '2XX': { description: 'ok' } } } } } });
    expectIssue(
      parseIssues(swagger),
      '/paths/~1a/get/responses/2XX',
      'should be an HTTP status code or default',
    );
    expect(parseOk(withPaths({ '/a': { get: {} } }, openApi31())).warnings).toEqual([]);
  });

  it('skips trace in Swagger 2.0', () => {
    const swagger = swagger20({ paths: { '/a': { trace: { responses: ok } }, ...healthy } });
    expectIssue(parseIssues(swagger), '/paths/~1a/trace', 'is not an operation of OpenAPI 2.0');
  });

  it('warns about unknown path item fields, responses without description and operation servers', () => {
    const definition = parseOk(
      withPaths({
        '/a': {
          servers: [{ url: '/elsewhere' }],
          colour: 'blue',
          get: { servers: [{ url: '/other' }], summary: 5, responses: { '200': {} } },
        },
      }),
    );
    expectIssue(definition.warnings, '/paths/~1a/colour', 'unknown path item field "colour" ignored');
    expectIssue(definition.warnings, '/paths/~1a/get/responses/200/description', 'should have a description');
    expectIssue(definition.warnings, '/paths/~1a/servers', 'path item servers are ignored');
    expectIssue(definition.warnings, '/paths/~1a/get/servers', 'operation servers are ignored');
    expectIssue(definition.warnings, '/paths/~1a/get/summary', 'should be a string');
    expect(definition.operations[0]?.summary).toBeUndefined();
  });

  it('imports duplicate operationIds with a warning naming both operations', () => {
    const definition = parseOk(
      withPaths({
        '/a': { get: { operationId: 'same', responses: ok } },
        '/b': { post: { operationId: 'same', responses: ok } },
      }),
    );
    expect(definition.operations).toHaveLength(2);
    expectIssue(
      definition.warnings,
      '/paths/~1b/post/operationId',
      'duplicate operationId "same": POST /b and GET /a both use it',
    );
  });

  it('keeps every problem of a document with hundreds of them, as warnings', () => {
    const paths = Object.fromEntries(Array.from({ length: 300 }, (_, index) => [`/p${index}`, { get: {} }]));
    const definition = parseOk(withPaths(paths));
    expect(definition.operations).toHaveLength(300);
    expect(definition.warnings).toHaveLength(300);
  });
});

describe('warnings', () => {
  it('caps warnings, counting the rest in one last entry', () => {
    const paths = Object.fromEntries(
      Array.from({ length: 1_200 }, (_, index) => [`/p${index}`, { colour: 'blue' }]),
    );
    const result = parseApiDefinition(
      JSON.stringify(withPaths({ ...paths, '/ok': { get: { responses: ok } } })),
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.definition.warnings).toHaveLength(1_001);
    expect(result.definition.warnings[1_000]).toEqual({
      pointer: '',
      message: '1400 more warning(s) not listed',
    });
    const few = parseApiDefinition(
      JSON.stringify(withPaths({ ...paths, '/ok': { get: { responses: ok } } })),
      {
        maxWarnings: 3,
      },
    );
    expect(few.ok && few.definition.warnings.length).toBe(4);
  });
});
