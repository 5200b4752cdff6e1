import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { diffOperations } from '../../../src-server/control/apis/openapi/index.js';
import { basePathsOverlap } from '../../../src-server/core/paths/base-path.js';
import { findBestTemplateMatch } from '../../../src-server/core/paths/path-template.js';
import { parseOk } from './helpers.js';

function sample(name: string): Buffer {
  return readFileSync(fileURLToPath(new URL(`../../../resources/samples/${name}`, import.meta.url)));
}

describe('samples', () => {
  it('orders-api.openapi.yaml is a valid OpenAPI 3.0 document at /orders-api/v1', () => {
    const definition = parseOk(sample('orders-api.openapi.yaml'));
    expect(definition).toMatchObject({
      specVersion: '3.0',
      format: 'yaml',
      title: 'Orders API',
      serverUrl: 'https://api.example.com/orders-api/v1',
      basePath: '/orders-api/v1',
      warnings: [],
    });
    expect(definition.operations.map((operation) => `${operation.method} ${operation.path}`)).toEqual([
      'GET /orders',
      'POST /orders',
      'GET /orders/{orderId}',
      'PATCH /orders/{orderId}',
      'DELETE /orders/{orderId}',
      'GET /orders/{orderId}/shipments',
      'GET /orders/{orderId}/shipments/{shipmentId}',
    ]);
    expect(definition.operations.at(-1)?.pathParameters).toEqual(['orderId', 'shipmentId']);
  });

  it('inventory-api.openapi.json is a valid OpenAPI 3.1 document at /inventory/v2', () => {
    const definition = parseOk(sample('inventory-api.openapi.json'));
    expect(definition).toMatchObject({
      specVersion: '3.1',
      format: 'json',
      title: 'Inventory API',
      serverUrl: 'https://eu-north.api.example.com/inventory/v2',
      basePath: '/inventory/v2',
      warnings: [],
    });
    expect(definition.operations).toHaveLength(5);
    const templates = definition.operations.map((operation) => operation.path);
    expect(findBestTemplateMatch(templates, '/items/low-stock')?.template).toBe('/items/low-stock');
    expect(findBestTemplateMatch(templates, '/items/SKU-1')).toEqual({
      template: '/items/{sku}',
      params: { sku: 'SKU-1' },
    });
  });

  it('legacy-billing.swagger.yaml is a valid Swagger 2.0 document at /legacy/billing', () => {
    const definition = parseOk(sample('legacy-billing.swagger.yaml'));
    expect(definition).toMatchObject({
      specVersion: '2.0',
      serverUrl: 'https://billing.example.com/legacy/billing',
      basePath: '/legacy/billing',
      warnings: [],
    });
    expect(definition.operations.map((operation) => operation.operationId)).toEqual([
      'listInvoices',
      'getInvoice',
      'registerPayment',
      'listCustomerInvoices',
    ]);
  });

  it('the three samples can be exposed side by side and re-import to no change', () => {
    const names = ['orders-api.openapi.yaml', 'inventory-api.openapi.json', 'legacy-billing.swagger.yaml'];
    const definitions = names.map((name) => parseOk(sample(name)));
    for (const a of definitions) {
      for (const b of definitions) if (a !== b) expect(basePathsOverlap(a.basePath, b.basePath)).toBe(false);
    }
    const [orders] = definitions;
    if (!orders) throw new Error('no orders sample');
    const diff = diffOperations(orders, parseOk(sample('orders-api.openapi.yaml')));
    expect(diff.added).toEqual([]);
    expect(diff.removed).toEqual([]);
    expect(diff.kept).toHaveLength(orders.operations.length);
  });
});
