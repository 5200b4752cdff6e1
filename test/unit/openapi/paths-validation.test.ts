import { describe, expect, it } from 'vitest';
import { parseApiDefinition } from '../../../src-server/control/apis/openapi/index.js';
import { expectIssue, openApi30, openApi31, parseErrors, parseOk, swagger20, withPaths } from './helpers.js';

const ok = { '200': { description: 'ok' } };
const idParameter = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };

describe('paths object', () => {
  it('requires paths in 2.0 and 3.0, only warns in 3.1', () => {
    expectIssue(parseErrors(openApi30({ paths: undefined })), '/paths', 'missing');
    expectIssue(parseErrors(swagger20({ paths: undefined })), '/paths', 'missing');
    const definition = parseOk(openApi31({ paths: undefined }));
    expect(definition.operations).toEqual([]);
    expectIssue(definition.warnings, '/paths', 'no paths');
  });

  it('refuses paths that is not an object', () => {
    expectIssue(
      parseErrors(openApi30({ paths: [] })),
      '/paths',
      'must be an object whose keys are paths such as /orders, found array',
    );
    expectIssue(parseErrors(openApi30({ paths: null })), '/paths', 'found null');
  });

  it('refuses path keys that do not start with "/", skips x- extensions', () => {
    const errors = parseErrors(
      withPaths({ orders: { get: { responses: ok } }, 'x-internal': { anything: true } }),
    );
    expect(errors).toEqual([{ pointer: '/paths/orders', message: 'path "orders" must start with "/"' }]);
  });

  it.each([
    ['/orders/{id', "'{' at position 8 is not closed"],
    ['/orders/id}', "'}' at position 10 has no matching '{'"],
    ['/orders/{{id}}', "'{' at position 9 is inside another parameter"],
    ['/orders/{}', "empty parameter name '{}' at position 8"],
    ['/orders/{id}/{id}', 'parameter {id} appears more than once'],
    ['/files/{name}{ext}', 'directly follows another parameter'],
    ['/orders?status=open', "must not contain a query string ('?')"],
    ['/orders#top', "must not contain a fragment ('#')"],
    ['/a/{b/c}', "'{' at position 3 is not closed"],
  ])('refuses the malformed template %s', (path, message) => {
    expectIssue(
      parseErrors(withPaths({ [path]: { get: { responses: ok } } })),
      `/paths/${path.replaceAll('/', '~1')}`,
      message,
    );
  });

  it('refuses two templates that differ only in parameter names', () => {
    const errors = parseErrors(
      withPaths({
        '/orders/{id}': { get: { parameters: [idParameter], responses: ok } },
        '/orders/{orderId}': {
          get: { parameters: [{ ...idParameter, name: 'orderId' }], responses: ok },
        },
      }),
    );
    expect(errors).toEqual([
      {
        pointer: '/paths/~1orders~1{orderId}',
        message:
          'path "/orders/{orderId}" matches the same requests as "/orders/{id}" (only parameter names differ)',
      },
    ]);
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

  it('warns about path items without operations and about a document without operations', () => {
    const definition = parseOk(withPaths({ '/a': { summary: 'Nothing yet' } }));
    expectIssue(definition.warnings, '/paths/~1a', 'has no operations');
    expectIssue(definition.warnings, '/paths', 'defines no operations');
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

  it.each([
    ['an upper-case method', { GET: { responses: ok } }, '/paths/~1a/GET', 'lowercase: use "get"'],
    [
      'an unsupported method',
      { connect: { responses: ok } },
      '/paths/~1a/connect',
      'not a supported operation',
    ],
    ['QUERY', { query: { responses: ok } }, '/paths/~1a/query', 'not a supported operation'],
    [
      'an operation that is not an object',
      { get: 'yes' },
      '/paths/~1a/get',
      'an operation must be an object, found string',
    ],
    ['a null operation', { get: null }, '/paths/~1a/get', 'found null'],
    [
      'missing responses',
      { get: {} },
      '/paths/~1a/get/responses',
      'missing: an operation must declare its responses',
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
      'must be an HTTP status code',
    ],
    [
      'a response that is not an object',
      { get: { responses: { '200': 'OK' } } },
      '/paths/~1a/get/responses/200',
      'must be an object',
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
  ])('refuses %s', (_name, pathItem, pointer, message) => {
    expectIssue(parseErrors(withPaths({ '/a': pathItem })), pointer, message);
  });

  it('refuses a path item that is not an object', () => {
    expectIssue(
      parseErrors(withPaths({ '/a': null })),
      '/paths/~1a',
      'a path item must be an object of operations, found null',
    );
    expectIssue(parseErrors(withPaths({ '/a': ['get'] })), '/paths/~1a', 'found array');
  });

  it('uses the pointer of the example in the brief for a missing responses object', () => {
    const errors = parseErrors(withPaths({ '/orders/{id}': { parameters: [idParameter], get: {} } }));
    expect(errors).toEqual([
      {
        pointer: '/paths/~1orders~1{id}/get/responses',
        message: 'missing: an operation must declare its responses',
      },
    ]);
  });

  it('accepts status ranges in 3.x but not in 2.0, and missing responses in 3.1', () => {
    parseOk(
      withPaths({
        '/a': { get: { responses: { '2XX': { description: 'ok' }, default: { description: 'e' } } } },
      }),
    );
    const swagger = swagger20({ paths: { '/a': { get: { responses: { '2XX': { description: 'ok' } } } } } });
    expectIssue(
      parseErrors(swagger),
      '/paths/~1a/get/responses/2XX',
      'must be an HTTP status code or default',
    );
    parseOk(withPaths({ '/a': { get: {} } }, openApi31()));
  });

  it('refuses trace in Swagger 2.0', () => {
    const swagger = swagger20({ paths: { '/a': { trace: { responses: ok } } } });
    expectIssue(
      parseErrors(swagger),
      '/paths/~1a/trace',
      'not a supported operation; use one of get, put, post, delete, options, head, patch',
    );
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

  it('refuses duplicate operationIds, naming both operations', () => {
    const errors = parseErrors(
      withPaths({
        '/a': { get: { operationId: 'same', responses: ok } },
        '/b': { post: { operationId: 'same', responses: ok } },
      }),
    );
    expect(errors).toEqual([
      {
        pointer: '/paths/~1b/post/operationId',
        message: 'duplicate operationId "same": POST /b and GET /a both use it',
      },
    ]);
  });

  it('collects many errors at once and caps them', () => {
    const paths = Object.fromEntries(Array.from({ length: 300 }, (_, index) => [`/p${index}`, { get: {} }]));
    const result = parseApiDefinition(JSON.stringify(withPaths(paths)));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toHaveLength(101);
    expect(result.errors[100]).toEqual({
      pointer: '',
      message: 'validation stopped after 100 errors; there may be more',
    });
    const few = parseApiDefinition(JSON.stringify(withPaths(paths)), { maxErrors: 3 });
    expect(!few.ok && few.errors.length).toBe(4);
    // A nonsensical limit still reports that the document is invalid.
    const none = parseApiDefinition(JSON.stringify(withPaths(paths)), { maxErrors: 0, maxBytes: Number.NaN });
    expect(!none.ok && none.errors.length).toBe(2);
  });
});

describe('warnings', () => {
  it('caps warnings too, and keeps a valid document valid', () => {
    const paths = Object.fromEntries(
      Array.from({ length: 150 }, (_, index) => [`/p${index}`, { colour: 'blue' }]),
    );
    const result = parseApiDefinition(
      JSON.stringify(withPaths({ ...paths, '/ok': { get: { responses: ok } } })),
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.definition.warnings).toHaveLength(101);
    expect(result.definition.warnings[100]).toEqual({
      pointer: '',
      message: '200 more warning(s) not shown',
    });
  });
});
