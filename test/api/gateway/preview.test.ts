import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ordersPassthrough, startGatewayFixture, type GatewayFixture } from './gateway-fixture.js';

let fixture: GatewayFixture;
let apiId: string;

interface Preview {
  targetUrl: string | null;
  headers: Record<string, string | string[]>;
  errors: { place: string; position: number; message: string }[];
}

beforeAll(async () => {
  fixture = await startGatewayFixture();
  await fixture.setVariable(
    'backend',
    { url: 'https://backend.example.com', token: 'pv-secret-77' },
    { secret: ['token'] },
  );
  const api = await fixture.addApi({
    basePath: '/orders-api/v1',
    operations: ['GET /orders/{id}', 'GET /orders/lookup'],
  });
  apiId = api.id;
  await fixture.setPassthrough(api.id, ordersPassthrough());
});
afterAll(() => fixture.close());

async function preview(
  body: unknown,
  id = apiId,
): Promise<{ status: number; json: Preview & Record<string, unknown> }> {
  const response = await fixture.server.api(`/api/v1/apis/${id}/passthrough/preview`, {
    method: 'POST',
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Preview & Record<string, unknown> };
}

describe('POST /api/v1/apis/{apiId}/passthrough/preview', () => {
  it('previews a saved operation entry with a sample built from its path, secrets and credentials masked', async () => {
    const { status, json } = await preview({ entry: 'GET /orders/{id}' });
    expect(status).toBe(200);
    expect(json.errors).toEqual([]);
    expect(json.targetUrl).toBe('https://backend.example.com/orders/sample-id?key=********');
    expect(json.headers).toMatchObject({
      authorization: '********',
      'x-order': 'sample-id',
      host: 'backend.example.com',
      'x-forwarded-proto': 'http',
    });
    expect(json.headers.traceparent).toMatch(/^00-/);
    expect(JSON.stringify(json)).not.toContain('pv-secret-77');
  });

  it('renders a sample request given as a path under the base path, a full path or an absolute URL', async () => {
    const relative = await preview({
      entry: 'allOperations',
      sample: { method: 'POST', url: '/a/b?x=1', headers: { 'X-Api-Key': 'client-key', 'X-Plain': 'v' } },
    });
    expect(relative.json.targetUrl).toBe('https://backend.example.com/all/a/b?x=1');
    expect(relative.json.headers).toMatchObject({ 'x-api-key': '********', 'x-plain': 'v' });
    const full = await preview({ entry: 'allOperations', sample: { url: '/orders-api/v1/c?y=2' } });
    expect(full.json.targetUrl).toBe('https://backend.example.com/all/c?y=2');
    const absolute = await preview({
      entry: 'GET /orders/{id}',
      sample: { url: 'http://localhost:8080/orders-api/v1/orders/42' },
    });
    expect(absolute.json.targetUrl).toBe('https://backend.example.com/orders/42?key=********');
    const outside = await preview({
      entry: 'allOperations',
      sample: { url: 'http://localhost:8080/elsewhere' },
    });
    expect(outside.json).toMatchObject({ targetUrl: null, errors: [{ place: 'sample' }] });
    const mismatch = await preview({ entry: 'GET /orders/{id}', sample: { url: '/customers/1' } });
    expect(mismatch.json.errors[0]).toMatchObject({
      place: 'sample',
      message: expect.stringContaining('/orders/{id}'),
    });
  });

  it('previews an unsaved configuration and reports errors with their place and position', async () => {
    const { status, json } = await preview({
      entry: 'GET /orders/lookup',
      configuration: {
        operations: {
          'GET /orders/lookup': {
            target: { section1: '{{#env.backend.url}}', section2: 'x', section3: '{{#env.nope}}' },
            headers: [{ action: 'Overwrite', name: 'Host', value: 'evil' }],
          },
        },
      },
    });
    expect(status).toBe(200);
    expect(json.targetUrl).toBeNull();
    expect(json.errors).toEqual([
      expect.objectContaining({ place: 'section3', position: 7, message: expect.stringContaining("'nope'") }),
      expect.objectContaining({ place: 'header:0', position: 0 }),
    ]);
    const good = await preview({
      entry: 'GET /orders/lookup',
      configuration: {
        operations: {
          'GET /orders/lookup': {
            target: {
              section1: 'https://unsaved.example',
              section2: 'lookup',
              section3: '{{#api.QueryParameters.id}}',
            },
          },
        },
      },
      sample: { url: '/orders/lookup?id=9' },
    });
    expect(good.json).toMatchObject({ targetUrl: 'https://unsaved.example/lookup/9', errors: [] });
  });

  it('reports what the gateway would refuse for the sample (request data leaving the target)', async () => {
    const { json } = await preview({
      entry: 'allOperations',
      configuration: {
        operations: {},
        allOperations: { target: { section1: 'https://t.example', section2: '{{#api.OperationPath}}' } },
      },
      sample: { url: '/a/../b' },
    });
    expect(json.targetUrl).toBeNull();
    expect(json.errors[0]).toMatchObject({ place: 'section2' });
  });

  it('is not audited and names unknown things (its latency is measured by bench:ui, not here)', async () => {
    expect((await preview({ entry: 'allOperations' }, '00000000-0000-0000-0000-000000000000')).status).toBe(
      404,
    );
    expect((await preview({ entry: 'DELETE /nothing' })).status).toBe(400);
    expect((await preview({ entry: 'allOperations', agentGroupId: 'missing' })).status).toBe(404);
    expect((await preview({ entry: 'allOperations', unknown: true })).status).toBe(400);
    for (let i = 0; i < 5; i++) {
      const { status } = await preview({ entry: 'GET /orders/{id}', sample: { url: `/orders/${i}` } });
      expect(status).toBe(200);
    }
    const audit = await fixture.server.gatehouse.audit.store.query({
      actionName: 'Passthroughs.Preview',
      pageNumber: 1,
      pageSize: 10,
    });
    expect(audit.items).toEqual([]);
  });
});
