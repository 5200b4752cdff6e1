import { describe, expect, it } from 'vitest';
import { diffOperations } from '../../../src-server/control/apis/openapi/index.js';
import {
  basePathsOverlap,
  joinBasePath,
  normalizeBasePath,
} from '../../../src-server/core/paths/base-path.js';
import type { ApiOperation } from '../../../src-server/control/apis/openapi/index.js';

describe('base paths', () => {
  it.each([
    ['', '/'],
    ['/', '/'],
    ['/api/', '/api'],
    ['api/v1', '/api/v1'],
    ['//api///v1//', '/api/v1'],
    ['/api?x=1', '/api'],
  ])('normalizeBasePath(%j) is %j', (input, expected) => {
    expect(normalizeBasePath(input)).toBe(expected);
  });

  it.each([
    ['/api', '/api/v2', true],
    ['/api/v2', '/api', true],
    ['/api', '/api', true],
    ['/api/', '/api', true],
    ['/api', '/apiv2', false],
    ['/api/v1', '/api/v2', false],
    ['/', '/anything/at/all', true],
    ['/orders', '/', true],
    ['/Api', '/api', false],
    ['/my%20api', '/my api/v1', true],
  ])('basePathsOverlap(%j, %j) is %s', (a, b, expected) => {
    expect(basePathsOverlap(a, b)).toBe(expected);
  });

  it('joinBasePath puts the operation path under the base path', () => {
    expect(joinBasePath('/orders-api/v1', '/orders/{id}')).toBe('/orders-api/v1/orders/{id}');
    expect(joinBasePath('/', '/orders')).toBe('/orders');
    expect(joinBasePath('/v1/', 'orders')).toBe('/v1/orders');
  });
});

function operation(method: ApiOperation['method'], path: string, operationId?: string): ApiOperation {
  return { method, path, pointer: '', pathParameters: [], ...(operationId ? { operationId } : {}) };
}

describe('diffOperations', () => {
  it('splits operations into kept, added and removed by method and path', () => {
    const before = [
      operation('GET', '/orders'),
      operation('GET', '/orders/{id}', 'old'),
      operation('DELETE', '/orders/{id}'),
    ];
    const after = [
      operation('GET', '/orders/{orderId}', 'new'),
      operation('POST', '/orders'),
      operation('GET', '/orders'),
    ];
    const diff = diffOperations({ operations: before }, { operations: after });
    expect(diff.kept).toEqual([
      { before: before[1], after: after[0] },
      { before: before[0], after: after[2] },
    ]);
    expect(diff.added).toEqual([after[1]]);
    expect(diff.removed).toEqual([before[2]]);
  });

  it('accepts operation arrays and compares methods case-insensitively', () => {
    const diff = diffOperations([{ method: 'get', path: '/a' }], [{ method: 'GET', path: '/a' }]);
    expect(diff.kept).toHaveLength(1);
    expect(diff.added).toEqual([]);
    expect(diff.removed).toEqual([]);
  });

  it('handles empty definitions and duplicates', () => {
    expect(diffOperations([], [])).toEqual({ kept: [], added: [], removed: [] });
    const a = operation('GET', '/a');
    const duplicate = operation('GET', '/a', 'again');
    expect(diffOperations([a, duplicate], [a])).toEqual({
      kept: [{ before: a, after: a }],
      added: [],
      removed: [duplicate],
    });
  });
});
