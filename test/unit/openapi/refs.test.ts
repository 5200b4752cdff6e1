import { describe, expect, it } from 'vitest';
import { RefResolver } from '../../../src-server/control/apis/openapi/resolve-refs.js';
import { expectIssue, openApi30, openApi31, parseIssues, parseOk, swagger20, withPaths } from './helpers.js';

const ok = { '200': { description: 'ok' } };
const idParameter = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };

describe('$ref resolution', () => {
  it('finds path parameter names through component parameter $refs, at both levels', () => {
    const document = withPaths(
      {
        '/orders/{id}/lines/{line}': {
          parameters: [{ $ref: '#/components/parameters/Id' }],
          get: { parameters: [{ $ref: '#/components/parameters/Line' }], responses: ok },
        },
      },
      openApi30({
        components: {
          parameters: {
            Id: idParameter,
            Line: { $ref: '#/components/parameters/LineAlias' },
            LineAlias: { ...idParameter, name: 'line' },
          },
        },
      }),
    );
    expect(parseOk(document).operations[0]?.pathParameters).toEqual(['id', 'line']);
  });

  it('follows Swagger 2.0 #/parameters and #/definitions references', () => {
    const document = swagger20({
      parameters: { Number: { name: 'number', in: 'path', required: true, type: 'string' } },
      definitions: { Invoice: { type: 'object' } },
      paths: {
        '/invoices/{number}': {
          parameters: [{ $ref: '#/parameters/Number' }],
          get: { responses: { '200': { description: 'ok', schema: { $ref: '#/definitions/Invoice' } } } },
        },
      },
    });
    expect(parseOk(document).warnings).toEqual([]);
  });

  it('resolves path item $refs to components/pathItems and to other paths', () => {
    const document = openApi31({
      paths: {
        '/orders/{id}': { $ref: '#/components/pathItems/Order' },
        '/v2/orders/{id}': { $ref: '#/paths/~1orders~1%7Bid%7D', summary: 'Local fields win' },
      },
      components: {
        pathItems: {
          Order: { parameters: [idParameter], get: { operationId: 'getOrder', responses: ok } },
        },
      },
    });
    // The shared operation object gives two routes one operationId.
    expectIssue(
      parseIssues(document),
      '/components/pathItems/Order/get/operationId',
      'duplicate operationId "getOrder": GET /v2/orders/{id} and GET /orders/{id} both use it',
    );
    const withoutIds = JSON.parse(
      JSON.stringify(document).replace('"operationId":"getOrder",', ''),
    ) as Record<string, unknown>;
    expect(parseOk(withoutIds).operations).toEqual([
      {
        method: 'GET',
        path: '/orders/{id}',
        pointer: '/components/pathItems/Order/get',
        pathParameters: ['id'],
      },
      {
        method: 'GET',
        path: '/v2/orders/{id}',
        pointer: '/components/pathItems/Order/get',
        pathParameters: ['id'],
      },
    ]);
  });

  it('follows an operation $ref (not allowed by OpenAPI) with a warning', () => {
    const document = withPaths(
      { '/orders/{id}': { parameters: [idParameter], get: { $ref: '#/x-operations/getOrder' } } },
      openApi30({ 'x-operations': { getOrder: { operationId: 'getOrder', responses: ok } } }),
    );
    const definition = parseOk(document);
    expect(definition.operations).toEqual([
      {
        method: 'GET',
        path: '/orders/{id}',
        pointer: '/x-operations/getOrder',
        operationId: 'getOrder',
        pathParameters: ['id'],
      },
    ]);
    expectIssue(
      definition.warnings,
      '/paths/~1orders~1{id}/get',
      'OpenAPI does not allow an operation to be a $ref',
    );
    const broken = withPaths({ '/a': { get: { $ref: '#/nowhere' } }, '/b': { get: { responses: ok } } });
    expectIssue(parseIssues(broken), '/paths/~1a/get', '$ref "#/nowhere" does not resolve');
  });

  it('points at local fields next to a path item $ref', () => {
    const document = openApi31({
      paths: { '/a': { $ref: '#/components/pathItems/A', post: { responses: [] } } },
      components: { pathItems: { A: { get: { responses: ok } } } },
    });
    expectIssue(parseIssues(document), '/paths/~1a/post/responses', 'found array');
  });

  it('reports errors inside a shared referenced parameter once, at the target', () => {
    const document = withPaths(
      {
        '/a/{id}': { get: { parameters: [{ $ref: '#/components/parameters/Id' }], responses: ok } },
        '/b/{id}': { get: { parameters: [{ $ref: '#/components/parameters/Id' }], responses: ok } },
      },
      openApi30({ components: { parameters: { Id: { ...idParameter, required: false } } } }),
    );
    expect(parseIssues(document)).toEqual([
      { pointer: '/components/parameters/Id/required', message: 'a path parameter must have required: true' },
    ]);
  });

  it('reports cycles instead of hanging', () => {
    const document = withPaths(
      {
        '/a/{id}': { get: { parameters: [{ $ref: '#/components/parameters/A' }], responses: ok } },
        '/loop': { $ref: '#/paths/~1loop' },
      },
      openApi30({
        components: {
          parameters: { A: { $ref: '#/components/parameters/B' }, B: { $ref: '#/components/parameters/A' } },
          schemas: { Node: { type: 'object', properties: { next: { $ref: '#/components/schemas/Node' } } } },
        },
      }),
    );
    const errors = parseIssues(document);
    expectIssue(
      errors,
      '/components/parameters/B',
      'circular $ref: "#/paths/~1a~1{id}/get/parameters/0" → "#/components/parameters/A" → "#/components/parameters/B" → "#/components/parameters/A"',
    );
    expectIssue(errors, '/paths/~1loop', 'circular $ref');
    // The cycle is reported (the looping path item is skipped); the undeclared {id} is not piled on top of it.
    expect(errors).toHaveLength(2);
  });

  it('accepts recursive schemas', () => {
    const document = openApi30({
      components: {
        schemas: { Node: { type: 'object', properties: { next: { $ref: '#/components/schemas/Node' } } } },
      },
    });
    expect(parseOk(document).warnings).toEqual([]);
  });

  it('reports references to other files where the import needs them, never fetching', () => {
    const document = withPaths({
      '/a/{id}': { get: { parameters: [{ $ref: 'common.yaml#/parameters/Id' }], responses: ok } },
      '/b': { $ref: 'https://example.com/paths.yaml#/b' },
    });
    const definition = parseOk(document);
    expect(definition.operations.map((operation) => operation.path)).toEqual(['/a/{id}']);
    expectIssue(
      definition.warnings,
      '/paths/~1a~1{id}/get/parameters/0',
      'reference "common.yaml#/parameters/Id" names another file, which was not read',
    );
    expect(definition.skipped).toEqual([
      {
        method: '*',
        path: '/b',
        pointer: '/paths/~1b',
        reason: expect.stringContaining('import the description from its URL'),
      },
    ]);
  });

  it('only warns about external and dangling references elsewhere (schemas)', () => {
    const document = withPaths({
      '/a': {
        get: {
          responses: {
            '200': {
              description: 'ok',
              content: { 'application/json': { schema: { $ref: 'schemas.json#/Order' } } },
            },
            '404': { $ref: '#/components/responses/Missing' },
          },
        },
      },
    });
    const definition = parseOk(document);
    expectIssue(
      definition.warnings,
      '/paths/~1a/get/responses/200/content/application~1json/schema',
      'names another file',
    );
    expectIssue(definition.warnings, '/paths/~1a/get/responses/404', 'there is no "components" in "#"');
  });

  it('warns about dangling and malformed references of parameters', () => {
    const errors = parseIssues(
      withPaths({
        '/a': { get: { parameters: [{ $ref: '#/components/parameters/Nope' }], responses: ok } },
        '/b': { get: { parameters: [{ $ref: 42 }], responses: ok } },
        '/c': { get: { parameters: [{ $ref: '#components' }], responses: ok } },
      }),
    );
    expectIssue(
      errors,
      '/paths/~1a/get/parameters/0',
      '$ref "#/components/parameters/Nope" does not resolve',
    );
    expectIssue(errors, '/paths/~1b/get/parameters/0/$ref', '$ref must be a string, found 42');
    expectIssue(errors, '/paths/~1c/get/parameters/0', 'is not a JSON pointer fragment');
  });

  it('RefResolver decodes percent-escapes and ~0/~1, and indexes arrays', () => {
    const resolver = new RefResolver({ a: { 'b/c': { 'd~e': [10, 20] } }, 'sp ace': 1 });
    expect(resolver.lookupRef('#/a/b~1c/d~0e/1')).toEqual({ ok: true, value: 20, pointer: '/a/b~1c/d~0e/1' });
    expect(resolver.lookupRef('#/sp%20ace')).toMatchObject({ ok: true, value: 1 });
    expect(resolver.lookupRef('#/a/b~1c/d~0e/01')).toMatchObject({ ok: false });
    expect(resolver.lookupRef('#')).toMatchObject({ ok: true, pointer: '' });
    expect(resolver.lookupRef('#/toString')).toMatchObject({ ok: false });
  });
});
