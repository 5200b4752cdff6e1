import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEchoUpstream, type EchoedRequest, type Upstream } from '../../helpers/upstreams.js';
import { recordsFor, send, startGatewayFixture, type GatewayFixture } from './gateway-fixture.js';

let fixture: GatewayFixture;
let upstream: Upstream;

beforeAll(async () => {
  fixture = await startGatewayFixture();
  upstream = await startEchoUpstream();
  // Everything needs an API key: preflights must still pass, since browsers send none with them.
  await fixture.addPolicy({ grants: [{ type: 'apiKey' }] });
  const api = await fixture.addApi({
    basePath: '/cors',
    operations: ['GET /items/{id}', 'PUT /items/{id}', 'POST /items'],
  });
  const cors = (allowedOrigins: string[], allowCredentials = false) => ({
    enabled: true,
    allowedOrigins,
    allowCredentials,
    maxAgeSeconds: 120,
  });
  const section4 = '{{#api.QueryParameters}}';
  await fixture.setPassthrough(api.id, {
    operations: {
      'GET /items/{id}': {
        target: { section1: upstream.url, section2: 'items', section4 },
        cors: cors(['https://app.example.com', 'https://*.example.org'], true),
      },
      'PUT /items/{id}': {
        target: { section1: upstream.url, section2: 'items', section4 },
        cors: cors(['https://app.example.com']),
      },
      'POST /items': { target: { section1: upstream.url, section2: 'items', section4 } },
    },
  });
  const any = await fixture.addApi({ basePath: '/any' });
  await fixture.setPassthrough(any.id, {
    allOperations: { target: { section1: upstream.url, section2: 'any', section4 }, cors: cors(['*'], true) },
  });
});
afterAll(async () => {
  await fixture.close();
  await upstream.close();
});

function preflight(path: string, origin: string, method: string, headers?: string) {
  return send(fixture.gatewayUrl, {
    method: 'OPTIONS',
    path,
    headers: {
      Origin: origin,
      'Access-Control-Request-Method': method,
      ...(headers ? { 'Access-Control-Request-Headers': headers } : {}),
    },
  });
}

describe('CORS at the gateway', () => {
  it('answers preflights itself, before any policy: origin echoed, methods of the path, headers echoed, max age', async () => {
    const before = upstream.arrivals.length;
    const response = await preflight(
      '/cors/items/7',
      'https://app.example.com',
      'PUT',
      'X-Request-Id, Content-Type',
    );
    expect(response.status).toBe(204);
    expect(response.headers).toMatchObject({
      'access-control-allow-origin': 'https://app.example.com',
      'access-control-allow-methods': 'GET, PUT',
      'access-control-allow-headers': 'X-Request-Id, Content-Type',
      'access-control-max-age': '120',
    });
    expect(response.headers['access-control-allow-credentials']).toBeUndefined();
    expect(response.headers.vary).toContain('Origin');
    expect(upstream.arrivals.length).toBe(before);
    const [record] = await recordsFor(fixture, '/cors/items/7');
    expect(record).toMatchObject({ outcome: 'preflight', status: 204, operation: 'PUT /items/{id}' });
  });

  it('allows credentials only for an explicitly listed origin, and matches wildcard subdomains without them', async () => {
    const listed = await preflight('/cors/items/1', 'https://app.example.com', 'GET');
    expect(listed.headers['access-control-allow-credentials']).toBe('true');
    const sub = await preflight('/cors/items/1', 'https://eu.shop.example.org', 'GET');
    expect(sub.status).toBe(204);
    expect(sub.headers['access-control-allow-origin']).toBe('https://eu.shop.example.org');
    expect(sub.headers['access-control-allow-credentials']).toBeUndefined();
    const star = await preflight('/any/x', 'https://whoever.test', 'DELETE');
    expect(star.headers['access-control-allow-origin']).toBe('*');
    expect(star.headers['access-control-allow-credentials']).toBeUndefined();
    expect(star.headers['access-control-allow-methods']).toBe('GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS');
  });

  it('gives a disallowed origin no CORS headers at all', async () => {
    for (const origin of [
      'https://evil.example.com',
      'https://example.org',
      'http://app.example.com',
      'null',
    ]) {
      const response = await preflight('/cors/items/1', origin, 'GET');
      expect(response.status).toBe(204);
      expect(Object.keys(response.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
    }
  });

  it('adds CORS headers to actual responses (errors included) and drops the target’s own', async () => {
    const key = await fixture.addApiKey();
    const response = await send(fixture.gatewayUrl, {
      path: '/cors/items/3?header=Access-Control-Allow-Origin:*&header=Access-Control-Expose-Headers:X-Leak',
      headers: { Origin: 'https://app.example.com', 'X-API-Key': key },
    });
    expect(response.status).toBe(200);
    const origins = response.rawHeaders.filter(
      (_, index) => response.rawHeaders[index - 1]?.toLowerCase() === 'access-control-allow-origin',
    );
    expect(origins).toEqual(['https://app.example.com']);
    expect(response.headers['access-control-expose-headers']).toBeUndefined();
    expect(response.headers['access-control-allow-credentials']).toBe('true');
    expect(response.headers.vary).toContain('Origin');
    // A gateway error the browser should be able to read carries them too.
    const denied = await send(fixture.gatewayUrl, {
      path: '/cors/items/3',
      headers: { Origin: 'https://app.example.com' },
    });
    expect(denied.status).toBe(401);
    expect(denied.headers['access-control-allow-origin']).toBe('https://app.example.com');
  });

  it('forwards OPTIONS when the requested method’s entry has CORS off', async () => {
    const response = await preflight('/cors/items', 'https://app.example.com', 'POST');
    // POST /items has CORS off and no OPTIONS operation: the OPTIONS request itself is not defined there.
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('POST');
    const key = await fixture.addApiKey();
    const actual = await send(fixture.gatewayUrl, {
      method: 'POST',
      path: '/cors/items?header=Access-Control-Allow-Origin:https://backend-decides.test',
      headers: { Origin: 'https://app.example.com', 'X-API-Key': key },
      body: '{}',
    });
    expect(actual.status).toBe(200);
    expect(actual.headers['access-control-allow-origin']).toBe('https://backend-decides.test');
    expect((actual.json() as EchoedRequest).headers.origin).toBe('https://app.example.com');
  });

  it('exposes the headers the entry lists to browser scripts (ETag, Location, custom ones)', async () => {
    const api = await fixture.addApi({ basePath: '/exposed' });
    await fixture.setPassthrough(api.id, {
      allOperations: {
        target: { section1: upstream.url, section2: 'exposed', section4: '{{#api.QueryParameters}}' },
        cors: {
          enabled: true,
          allowedOrigins: ['https://app.example.com'],
          exposeHeaders: ['ETag', 'Location', 'X-Total-Count'],
        },
      },
    });
    const key = await fixture.addApiKey();
    const response = await send(fixture.gatewayUrl, {
      path: '/exposed/list?header=ETag:"v1"&header=X-Total-Count:42',
      headers: { Origin: 'https://app.example.com', 'X-API-Key': key },
    });
    expect(response.status).toBe(200);
    expect(response.headers['access-control-expose-headers']).toBe('ETag, Location, X-Total-Count');
    expect(response.headers.etag).toBe('"v1"');
    const other = await send(fixture.gatewayUrl, {
      path: '/exposed/list',
      headers: { Origin: 'https://other.example.com', 'X-API-Key': key },
    });
    expect(other.headers['access-control-expose-headers']).toBeUndefined();
  });
});
