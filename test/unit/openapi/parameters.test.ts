import { describe, expect, it } from 'vitest';
import { expectIssue, parseIssues, parseOk, swagger20, withPaths } from './helpers.js';

const ok = { '200': { description: 'ok' } };
const idParameter = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };

describe('parameters', () => {
  it('warns about a template parameter not declared in: path, and still routes the operation', () => {
    const definition = parseOk(withPaths({ '/orders/{id}': { get: { responses: ok } } }));
    expect(definition.operations.map((operation) => operation.pathParameters)).toEqual([['id']]);
    expect(definition.warnings).toEqual([
      {
        pointer: '/paths/~1orders~1{id}/get/parameters',
        message:
          'path parameter {id} of "/orders/{id}" is not declared (the gateway still matches any value there): add a ' +
          'parameter with name: id, in: path, required: true to the path item or to this operation',
      },
    ]);
  });

  it('does not count a query parameter of the same name as the declaration', () => {
    const pathItem = {
      get: { parameters: [{ ...idParameter, in: 'query', required: false }], responses: ok },
    };
    expectIssue(
      parseIssues(withPaths({ '/orders/{id}': pathItem })),
      '/paths/~1orders~1{id}/get/parameters',
      'not declared',
    );
  });

  it('accepts declarations at path item level or operation level', () => {
    parseOk(
      withPaths({
        '/orders/{id}': { parameters: [idParameter], get: { responses: ok }, delete: { responses: ok } },
      }),
    );
    parseOk(withPaths({ '/orders/{id}': { get: { parameters: [idParameter], responses: ok } } }));
  });

  it('only warns about a declared path parameter missing from the template', () => {
    const definition = parseOk(
      withPaths({ '/orders': { get: { parameters: [idParameter], responses: ok } } }),
    );
    expect(definition.warnings).toEqual([
      {
        pointer: '/paths/~1orders/get/parameters/0',
        message: 'path parameter "id" does not appear in "/orders", so it can never be sent',
      },
    ]);
  });

  it.each([
    [
      'parameters not an array',
      { parameters: { id: idParameter } },
      '/paths/~1a/get/parameters',
      'must be an array',
    ],
    [
      'a parameter that is not an object',
      { parameters: ['id'] },
      '/paths/~1a/get/parameters/0',
      'must be an object',
    ],
    [
      'a parameter without name',
      { parameters: [{ in: 'query', schema: {} }] },
      '/paths/~1a/get/parameters/0/name',
      'missing',
    ],
    [
      'an empty name',
      { parameters: [{ name: '', in: 'query', schema: {} }] },
      '/paths/~1a/get/parameters/0/name',
      'non-empty',
    ],
    [
      'a parameter without in',
      { parameters: [{ name: 'q', schema: {} }] },
      '/paths/~1a/get/parameters/0/in',
      'missing',
    ],
    [
      'an unknown location',
      { parameters: [{ name: 'q', in: 'body', schema: {} }] },
      '/paths/~1a/get/parameters/0/in',
      'query, header, path, cookie',
    ],
    [
      'an optional path parameter',
      { parameters: [{ ...idParameter, required: false }] },
      '/paths/~1a/get/parameters/0/required',
      'required: true',
    ],
    [
      'schema and content',
      { parameters: [{ name: 'q', in: 'query', schema: {}, content: {} }] },
      '/paths/~1a/get/parameters/0',
      'not both',
    ],
    [
      'a duplicate parameter',
      {
        parameters: [
          { name: 'q', in: 'query', schema: {} },
          { name: 'q', in: 'query', schema: {} },
        ],
      },
      '/paths/~1a/get/parameters/1',
      'duplicate parameter: "q" in query is already listed at /paths/~1a/get/parameters/0',
    ],
    [
      'duplicate headers differing in case',
      {
        parameters: [
          { name: 'X-Id', in: 'header', schema: {} },
          { name: 'x-id', in: 'header', schema: {} },
        ],
      },
      '/paths/~1a/get/parameters/1',
      'duplicate parameter',
    ],
  ])('warns about %s', (_name, operation, pointer, message) => {
    expectIssue(parseIssues(withPaths({ '/a': { get: { ...operation, responses: ok } } })), pointer, message);
  });

  it('lets an operation parameter override a path-level one', () => {
    const pathItem = {
      parameters: [{ name: 'q', in: 'query', schema: { type: 'string' } }],
      get: { parameters: [{ name: 'q', in: 'query', schema: { type: 'integer' } }], responses: ok },
    };
    expect(parseOk(withPaths({ '/a': pathItem })).warnings).toEqual([]);
  });

  it('warns about parameters without schema', () => {
    const definition = parseOk(
      withPaths({ '/a': { get: { parameters: [{ name: 'q', in: 'query' }], responses: ok } } }),
    );
    expectIssue(definition.warnings, '/paths/~1a/get/parameters/0', 'should have a schema');
  });

  it('checks Swagger 2.0 parameter rules', () => {
    const body = { name: 'b', in: 'body', schema: {} };
    const paths = {
      '/a': {
        post: {
          parameters: [body, { ...body, name: 'c' }, { name: 'f', in: 'formData', type: 'string' }],
          responses: ok,
        },
      },
    };
    const errors = parseIssues(swagger20({ paths }));
    expectIssue(errors, '/paths/~1a/post/parameters/1', 'at most one body parameter');
    expectIssue(errors, '/paths/~1a/post/parameters', 'body and formData parameters cannot be used together');
    expectIssue(
      parseIssues(
        swagger20({ paths: { '/a': { get: { parameters: [{ name: 'c', in: 'cookie' }], responses: ok } } } }),
      ),
      '/paths/~1a/get/parameters/0/in',
      'query, header, path, formData, body',
    );
    const warned = parseOk(
      swagger20({ paths: { '/a': { get: { parameters: [{ name: 'q', in: 'query' }], responses: ok } } } }),
    );
    expectIssue(warned.warnings, '/paths/~1a/get/parameters/0', 'should have a type');
  });
});
