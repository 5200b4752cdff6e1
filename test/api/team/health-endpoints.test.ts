import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startPostgresServer, type PostgresServer } from '../../helpers/postgres-server.js';
import { freshRequest } from '../../helpers/serve-client.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';
import { startEchoUpstream, type Upstream } from '../../helpers/upstreams.js';
import { startGatewayFixture, type GatewayFixture } from '../gateway/gateway-fixture.js';
import { expectProblem, importApi, openApiDocument } from '../management/helpers.js';

let fixture: GatewayFixture;
let upstream: Upstream;

beforeAll(async () => {
  fixture = await startGatewayFixture();
  upstream = await startEchoUpstream();
  await fixture.allowPublic();
  // An All operations entry at the root: it takes every path except the two the listener answers itself.
  await fixture.routeAll('/', upstream.url);
});
afterAll(async () => {
  await fixture.close();
  await upstream.close();
});

/** A request on a connection of its own, with the Host header the caller wants (fetch would not let it change). */
function get(url: string, path: string, options: { method?: string; host?: string } = {}) {
  return freshRequest(url, path, {
    method: options.method,
    headers: options.host ? { Host: options.host } : {},
  });
}

describe('health endpoints for load balancers', () => {
  it('/healthz and /readyz answer on the gateway listener, before any passthrough and without credentials', async () => {
    const seen = upstream.requests.length;
    const alive = await get(fixture.gatewayUrl, '/healthz');
    expect(alive.status).toBe(200);
    expect(alive.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(alive.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(alive.body)).toEqual({ status: 'alive', instance: expect.any(String) });

    const ready = await get(fixture.gatewayUrl, '/readyz?probe=lb');
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.body)).toEqual({
      status: 'ready',
      instance: expect.any(String),
      checks: {
        runtime: { status: 'pass', detail: expect.stringMatching(/^configuration revision \d+$/) },
        storage: { status: 'pass' },
        draining: { status: 'pass' },
      },
    });
    // The root passthrough never saw them; a path below them is an ordinary request.
    expect(upstream.requests.length).toBe(seen);
    const below = await get(fixture.gatewayUrl, '/healthz/deep');
    expect(below.status).toBe(200);
    expect(JSON.parse(below.body)).toMatchObject({ path: '/healthz/deep' });
  });

  it('answers HEAD without a body and refuses other methods with 405 and Allow', async () => {
    const head = await get(fixture.gatewayUrl, '/readyz', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    const post = await get(fixture.gatewayUrl, '/healthz', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    expect(JSON.parse(post.body)).toMatchObject({ status: 405, code: 'GH_ERR_METHOD_NOT_ALLOWED' });
  });

  it('answers on the Control Panel too, whatever the Host header (probes come by address), and reveals nothing', async () => {
    const url = fixture.server.url;
    const alive = await get(url, '/healthz', { host: '10.1.2.3:4700' });
    expect(alive.status).toBe(200);
    const ready = await get(url, '/readyz', { host: 'lb-probe.internal' });
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.body)).toEqual({
      status: 'ready',
      instance: expect.any(String),
      checks: { storage: { status: 'pass' }, draining: { status: 'pass' } },
    });
    // Everything else still goes through the DNS-rebinding guard.
    expect((await get(url, '/api/v1/me', { host: 'lb-probe.internal' })).status).toBe(421);
  });
});

describe('reserved paths', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('refuses an API whose base path, or (at /) an operation path, would be shadowed by a health endpoint', async () => {
    for (const serverUrl of ['https://api.example.com/healthz', 'https://api.example.com/readyz/v1']) {
      const response = await server.api('/api/v1/apis', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: openApiDocument({ serverUrl }),
      });
      const problem = await expectProblem(response, 409, 'GH_ERR_RESERVED_PATH');
      expect(problem.reservedPath).toBe(
        new URL(serverUrl).pathname.startsWith('/healthz') ? '/healthz' : '/readyz',
      );
    }
    const atRoot = await server.api('/api/v1/apis', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: openApiDocument({ serverUrl: 'https://other.example.com/', paths: ['/orders', '/readyz/{id}'] }),
    });
    await expectProblem(atRoot, 409, 'GH_ERR_RESERVED_PATH');
    // A segment that only starts with the name is not reserved.
    const near = await importApi(
      server,
      openApiDocument({ serverUrl: 'https://api.example.com/healthzone' }),
    );
    expect(near.basePath).toBe('/healthzone');
  });
});

describe('readiness when storage fails', () => {
  let postgres: PostgresServer;
  let server: TestServer;
  beforeAll(async () => {
    postgres = await startPostgresServer();
    server = await startTestServer({ settings: { 'ConnectionStrings:Gatehouse': postgres.url } });
  }, 60_000);
  afterAll(async () => {
    await server.close();
    await postgres.destroy();
  });

  it('answers 503 problem+json naming the failing check on every listener while PostgreSQL is down', async () => {
    for (const url of [server.url, server.gatewayUrl]) expect((await get(url, '/readyz')).status).toBe(200);
    postgres.stop('fast');
    for (const url of [server.url, server.gatewayUrl]) {
      const ready = await get(url, '/readyz');
      expect(ready.status).toBe(503);
      expect(ready.headers['content-type']).toBe('application/problem+json; charset=utf-8');
      const problem = JSON.parse(ready.body) as Record<string, unknown>;
      expect(problem).toMatchObject({
        status: 503,
        code: 'GH_ERR_NOT_READY',
        detail: expect.stringMatching(/^Not ready: storage \(the database does not answer \(\w+\)\)\.$/),
        checks: { storage: { status: 'fail' }, draining: { status: 'pass' } },
      });
      // Alive all the same: a restart would not help a database that is down.
      expect((await get(url, '/healthz')).status).toBe(200);
    }
    postgres.start();
    // The pool reconnects by itself: ready again without a restart.
    await vi.waitFor(async () => expect((await get(server.gatewayUrl, '/readyz')).status).toBe(200), {
      timeout: 15_000,
      interval: 200,
    });
  }, 60_000);
});
