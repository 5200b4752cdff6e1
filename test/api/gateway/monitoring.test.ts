import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEchoUpstream, type Upstream } from '../../helpers/upstreams.js';
import { recordsFor, send, startGatewayFixture, type GatewayFixture } from './gateway-fixture.js';

let fixture: GatewayFixture;
let upstream: Upstream;
let apiId: string;

beforeAll(async () => {
  fixture = await startGatewayFixture();
  upstream = await startEchoUpstream();
  await fixture.allowPublic();
  const api = await fixture.addApi({
    basePath: '/mon',
    operations: ['POST /orders', 'GET /orders/{id}'],
    name: 'Monitored API',
  });
  apiId = api.id;
  await fixture.setPassthrough(api.id, {
    operations: {
      'POST /orders': {
        target: { section1: upstream.url, section2: 'orders', section4: '{{#api.QueryParameters}}' },
      },
    },
  });
});
afterAll(async () => {
  await fixture.close();
  await upstream.close();
});

describe('API monitoring of every request at the listener', () => {
  it('describes a forwarded request: API, operation, sizes, duration, target, client, identity', async () => {
    const response = await send(fixture.gatewayUrl, {
      method: 'POST',
      path: '/mon/orders?delay=120&token=abc',
      body: 'x'.repeat(1234),
    });
    expect(response.status).toBe(200);
    const [record] = await recordsFor(fixture, '/mon/orders');
    expect(record).toEqual({
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      agentGroupId: 'default',
      agentGroupName: 'Default',
      method: 'POST',
      path: '/mon/orders',
      apiId,
      apiName: 'Monitored API',
      operation: 'POST /orders',
      status: 200,
      durationMs: expect.any(Number),
      bytesIn: 1234,
      bytesOut: response.body.length,
      // A credential-like query value a template passed on is masked, as secret values are.
      targetUrl: `${upstream.url}/orders?delay=120&token=********`,
      outcome: 'forwarded',
      clientIp: '127.0.0.1',
      identity: 'public',
      // The instance whose gateway served it (Instance:Id; host name and process id by default).
      instance: expect.any(String),
    });
    expect(record!.instance).not.toBe('');
    expect(record!.durationMs).toBeGreaterThanOrEqual(115);
  });

  it('describes requests that never reached an endpoint, with a short reason and no query', async () => {
    await send(fixture.gatewayUrl, { method: 'DELETE', path: '/mon/orders?secret=1' });
    await send(fixture.gatewayUrl, { path: '/mon/orders/7' });
    const records = await recordsFor(fixture, '/mon/orders', 3);
    expect(records.slice(1)).toEqual([
      expect.objectContaining({
        path: '/mon/orders',
        status: 405,
        outcome: 'method-not-allowed',
        apiId,
        reason: 'DELETE is not defined for this path',
      }),
      expect.objectContaining({
        path: '/mon/orders/7',
        status: 404,
        outcome: 'unmatched',
        apiId,
        bytesOut: expect.any(Number),
      }),
    ]);
    expect(JSON.stringify(records)).not.toContain('secret=1');
  });
});
