/** OpenAPI documents the APIs screen's tests import, each showing one behaviour of the import. */

/** Accepted with a warning: a declared path parameter that is not in the path. */
export const WIDGETS = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'Widgets', version: '0.9.0' },
  servers: [{ url: 'https://widgets.example.com/widgets' }],
  paths: {
    '/widgets': {
      get: {
        operationId: 'listWidgets',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'ok' } },
      },
    },
  },
});

/** YAML that is no API description at all: refused. */
export const NOT_OPENAPI = `name: things
version: 1.0.0
dependencies:
  left-pad: ^1.3.0
`;

/**
 * A rough description that still imports: no title, undeclared path parameters, responses without
 * descriptions, a duplicate operationId, and one operation the gateway can't tell apart from another (skipped).
 */
export const ROUGH = `openapi: 3.0.3
info:
  version: '1'
servers:
  - url: /rough
paths:
  /things/{id}:
    get:
      operationId: thing
      responses:
        '200': {}
  /things/{thingId}:
    get:
      operationId: thing
      responses:
        '200': {}
  /parts/{id}:
    delete:
      responses:
        '204': {}
  /tools/{id}:
    put:
      operationId: thing
      responses:
        '200': {}
`;

export const SYNTAX_ERROR = `openapi: 3.0.3
info:
  title: Broken
  version: '1'
paths: [
`;

/** The next version of the Orders API: three operations kept ({id} renamed), one added, four gone. */
export const ORDERS_NEXT = JSON.stringify({
  openapi: '3.1.0',
  info: { title: 'Orders API', version: '1.5.0' },
  servers: [{ url: 'https://api.example.com/orders-api/v1' }],
  paths: {
    '/orders': { get: { operationId: 'listOrders', responses: { '200': { description: 'ok' } } } },
    '/orders/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      get: { operationId: 'getOrder', responses: { '200': { description: 'ok' } } },
    },
    '/orders/{id}/refunds': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      post: {
        operationId: 'refundOrder',
        summary: 'Refund an order',
        responses: { '201': { description: 'ok' } },
      },
    },
    '/orders/{id}/shipments': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      get: { operationId: 'listShipments', responses: { '200': { description: 'ok' } } },
    },
  },
});

/** A large document: 3,000 operations and a long description, about 1.5 MB. */
export function catalogDocument(): string {
  const paths: Record<string, unknown> = {};
  for (let index = 1; index <= 3000; index++) {
    paths[`/items/${String(index).padStart(4, '0')}`] = {
      get: {
        operationId: `getItem${index}`,
        summary: `Item ${index}`,
        responses: { '200': { description: 'ok' } },
      },
    };
  }
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'Catalog', version: '3.0.0', description: 'A large catalog. '.repeat(70_000) },
    servers: [{ url: '/catalog' }],
    paths,
  });
}
