import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MonitoringRecord } from '../../../src-server/core/monitoring/monitoring-record.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';
import { startEchoUpstream, type Upstream } from '../../helpers/upstreams.js';
import { send, startGatewayFixture, type GatewayFixture } from '../gateway/gateway-fixture.js';
import { getJson, type ListPage } from './helpers.js';

/** Waits until the gateway has reported the request (after its response closed) and the store holds it. */
async function listedFor(server: TestServer, search: string, count = 1): Promise<MonitoringRecord[]> {
  let records: MonitoringRecord[] = [];
  await vi.waitFor(
    async () => {
      await server.gatehouse.monitoring.flush();
      records = (await getJson<ListPage>(server, `/api/v1/monitoring/requests${search}`)).data;
      expect(records.length).toBeGreaterThanOrEqual(count);
    },
    { timeout: 5_000, interval: 20 },
  );
  return records;
}

describe('API monitoring of real gateway traffic', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('lists a request that reached no valid exposed endpoint', async () => {
    const response = await fetch(`${server.gatewayUrl}/no/such/api?apiKey=should-not-be-kept`);
    expect(response.status).toBe(404);
    await response.arrayBuffer();
    const [listed] = await listedFor(server, '?path=/no/such/api');
    expect(listed).toMatchObject({
      agentGroupId: 'default',
      method: 'GET',
      path: '/no/such/api',
      status: 404,
      outcome: 'unmatched',
    });
    expect(listed!.apiId).toBeUndefined();
    expect(JSON.stringify(listed)).not.toContain('should-not-be-kept');
    const summary = await getJson<{ totals: { status: Record<string, number> } }>(
      server,
      '/api/v1/monitoring/summary?outcome=unmatched',
    );
    expect(summary.totals.status['4xx']).toBeGreaterThanOrEqual(1);
  });
});

describe('API monitoring of a passthrough request', () => {
  let fixture: GatewayFixture;
  let upstream: Upstream;
  beforeAll(async () => {
    fixture = await startGatewayFixture();
    // The fixture collects records in an array; give the gateway the real sink back.
    fixture.server.gatehouse.gateway.setMonitoringSink(fixture.server.gatehouse.monitoring);
    upstream = await startEchoUpstream();
  });
  afterAll(async () => {
    await fixture.close();
    await upstream.close();
  });

  it('lists a forwarded request with its API, operation and masked target', async () => {
    await fixture.allowPublic();
    await fixture.setVariable(
      'backend',
      { url: upstream.url, token: 'top-secret-token' },
      { secret: ['token'] },
    );
    const api = await fixture.addApi({ basePath: '/shop/v1', operations: ['GET /orders/{id}'] });
    await fixture.setPassthrough(api.id, {
      operations: {
        'GET /orders/{id}': {
          target: {
            section1: '{{#env.backend.url}}',
            section2: 'orders',
            section3: '{{#env.backend.token}}',
          },
        },
      },
    });
    const response = await send(fixture.gatewayUrl, { path: '/shop/v1/orders/42?x=1' });
    expect(response.status).toBe(200);
    const [listed] = await listedFor(fixture.server, `?apiId=${api.id}&status=2xx`);
    expect(listed).toMatchObject({
      path: '/shop/v1/orders/42',
      apiId: api.id,
      operation: 'GET /orders/{id}',
      status: 200,
      outcome: 'forwarded',
    });
    expect(JSON.stringify(listed)).not.toContain('top-secret-token');
    const detail = await getJson<MonitoringRecord>(
      fixture.server,
      `/api/v1/monitoring/requests/${listed!.id}`,
    );
    expect(detail).toEqual(listed);
  });

  it('filters everything the All operations entry served, apart from `*` (matched no operation)', async () => {
    await fixture.allowPublic();
    const api = await fixture.addApi({
      basePath: '/mall/v1',
      operations: ['GET /items/{id}', 'GET /special'],
    });
    const toUpstream = {
      section1: upstream.url,
      section2: '',
      section3: '{{#api.OperationPath}}',
      section4: '',
    };
    await fixture.setPassthrough(api.id, {
      allOperations: { target: toUpstream },
      operations: { 'GET /special': { target: toUpstream } },
    });
    for (const path of ['/mall/v1/items/7', '/mall/v1/elsewhere', '/mall/v1/special'])
      expect((await send(fixture.gatewayUrl, { path })).status, path).toBe(200);
    await listedFor(fixture.server, `?apiId=${api.id}`, 3);

    const pathsOf = async (search: string) =>
      (await listedFor(fixture.server, `?apiId=${api.id}&${search}`, 0)).map((record) => record.path).sort();
    expect(await pathsOf('viaAllOperations=true')).toEqual(['/mall/v1/elsewhere', '/mall/v1/items/7']);
    expect(await pathsOf('operation=*')).toEqual(['/mall/v1/elsewhere']);
    expect(await pathsOf('viaAllOperations=false')).toEqual(['/mall/v1/special']);
    expect(await pathsOf('viaAllOperations=TRUE&operation=GET%20/items/%7Bid%7D')).toEqual([
      '/mall/v1/items/7',
    ]);
    const summary = await getJson<{ totals: { status: Record<string, number> } }>(
      fixture.server,
      `/api/v1/monitoring/summary?apiId=${api.id}&viaAllOperations=true`,
    );
    expect(summary.totals.status['2xx']).toBe(2);
    const refused = await fixture.server.api(`/api/v1/monitoring/requests?viaAllOperations=yes`, {
      roles: ['Auditor'],
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { errors: Record<string, string[]> }).errors).toHaveProperty(
      'viaAllOperations',
    );
  });
});
