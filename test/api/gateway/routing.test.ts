import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EchoedRequest, Upstream } from '../../helpers/upstreams.js';
import {
  ALL_OPERATIONS_TO_BACKEND,
  recordsFor,
  send,
  startPublicEchoGateway,
  type GatewayFixture,
  type RawResponse,
} from './gateway-fixture.js';

let fixture: GatewayFixture;
let upstream: Upstream;

beforeAll(async () => {
  ({ fixture, upstream } = await startPublicEchoGateway({ region: 'eu' }));
});
afterAll(async () => {
  await fixture.close();
  await upstream.close();
});

const echoed = (response: RawResponse) => response.json() as EchoedRequest;

describe('routing to passthrough endpoints', () => {
  it('forwards the worked example of the specification: env host, fixed base, query value as the path', async () => {
    const api = await fixture.addApi({ basePath: '/orders-api/v1', operations: ['GET /orders/lookup'] });
    await fixture.setPassthrough(api.id, {
      operations: {
        'GET /orders/lookup': {
          target: {
            section1: '{{#env.backend.url}}',
            section2: 'legacy/orders',
            section3: '{{#api.QueryParameters.id}}',
            section4: '',
          },
        },
      },
    });
    const response = await send(fixture.gatewayUrl, { path: '/orders-api/v1/orders/lookup?id=42' });
    expect(response.status).toBe(200);
    expect(echoed(response)).toMatchObject({ method: 'GET', url: '/legacy/orders/42' });
  });

  it('matches base paths on segment boundaries and prefers the longest', async () => {
    const short = await fixture.addApi({ basePath: '/seg' });
    const long = await fixture.addApi({ basePath: '/seg/v2' });
    await fixture.setPassthrough(short.id, {
      allOperations: {
        target: { section1: upstream.url, section2: 'short', section3: '{{#api.OperationPath}}' },
      },
    });
    await fixture.setPassthrough(long.id, {
      allOperations: {
        target: { section1: upstream.url, section2: 'long', section3: '{{#api.OperationPath}}' },
      },
    });
    expect(echoed(await send(fixture.gatewayUrl, { path: '/seg/v2/x' })).url).toBe('/long/x');
    expect(echoed(await send(fixture.gatewayUrl, { path: '/seg/v3/x' })).url).toBe('/short/v3/x');
    expect((await send(fixture.gatewayUrl, { path: '/segv2/x' })).status).toBe(404);
  });

  it('lets operation entries win over All operations, literals over parameters, and All operations take any path and query', async () => {
    const api = await fixture.addApi({
      basePath: '/shop',
      operations: ['GET /items/{id}', 'GET /items/featured', 'POST /items/{id}'],
    });
    await fixture.setPassthrough(api.id, {
      allOperations: ALL_OPERATIONS_TO_BACKEND,
      operations: {
        'GET /items/{id}': {
          target: {
            section1: '{{#env.backend.url}}',
            section2: 'item',
            section3: '{{#api.OperationPath.id}}',
          },
        },
        'GET /items/featured': {
          target: { section1: '{{#env.backend.url}}', section2: 'featured', section3: '' },
        },
      },
    });
    expect(echoed(await send(fixture.gatewayUrl, { path: '/shop/items/a%20b' })).url).toBe('/item/a%20b');
    expect(echoed(await send(fixture.gatewayUrl, { path: '/shop/items/featured' })).url).toBe('/featured');
    const post = echoed(
      await send(fixture.gatewayUrl, { method: 'POST', path: '/shop/items/7?x=1&y=%C3%A9', body: 'hi' }),
    );
    expect(post).toMatchObject({ method: 'POST', url: '/all/items/7?x=1&y=%C3%A9', bodyBytes: 2 });
    const other = echoed(
      await send(fixture.gatewayUrl, { method: 'PATCH', path: '/shop/not/an/operation/?q=a+b' }),
    );
    expect(other).toMatchObject({ method: 'PATCH', url: '/all/not/an/operation/?q=a+b' });
    const records = await recordsFor(fixture, '/shop/', 4);
    expect(records.map((record) => record.operation)).toEqual([
      'GET /items/{id}',
      'GET /items/featured',
      '*',
      '*',
    ]);
  });

  it('answers 404 for unknown endpoints and 405 with Allow for undefined methods, as problem+json', async () => {
    const api = await fixture.addApi({
      basePath: '/strict',
      operations: ['GET /things/{id}', 'DELETE /things/{id}', 'GET /plain'],
    });
    await fixture.setPassthrough(api.id, {
      operations: {
        'GET /things/{id}': { target: { section1: upstream.url } },
        'DELETE /things/{id}': { target: { section1: upstream.url } },
      },
    });
    const notAllowed = await send(fixture.gatewayUrl, { method: 'PUT', path: '/strict/things/1' });
    expect(notAllowed.status).toBe(405);
    expect(notAllowed.headers.allow).toBe('GET, DELETE');
    expect(notAllowed.headers['content-type']).toContain('application/problem+json');
    expect(notAllowed.json()).toMatchObject({
      status: 405,
      title: 'Method Not Allowed',
      instance: '/strict/things/1',
    });
    // An operation without an entry (and no All operations) is not exposed.
    expect((await send(fixture.gatewayUrl, { path: '/strict/plain' })).status).toBe(404);
    const unknown = await send(fixture.gatewayUrl, { path: '/nothing/here?secret=1' });
    expect(unknown.status).toBe(404);
    expect(unknown.json()).toMatchObject({ status: 404, instance: '/nothing/here' });
    expect(unknown.text).not.toContain('secret');
    const [record] = await recordsFor(fixture, '/nothing/here');
    expect(record).toMatchObject({ outcome: 'unmatched', status: 404, path: '/nothing/here' });
  });

  it('forwards HEAD and OPTIONS like any method when CORS is off', async () => {
    const api = await fixture.addApi({ basePath: '/methods' });
    await fixture.setPassthrough(api.id, {
      allOperations: { target: { section1: upstream.url, section2: 'm' } },
    });
    const head = await send(fixture.gatewayUrl, { method: 'HEAD', path: '/methods/x' });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    const options = await send(fixture.gatewayUrl, {
      method: 'OPTIONS',
      path: '/methods/x',
      headers: { origin: 'https://app.test', 'access-control-request-method': 'GET' },
    });
    expect(echoed(options)).toMatchObject({ method: 'OPTIONS', url: '/m' });
  });

  it('relays the target’s own errors unchanged', async () => {
    const api = await fixture.addApi({ basePath: '/errors' });
    await fixture.setPassthrough(api.id, {
      allOperations: {
        target: { section1: upstream.url, section2: 'e', section4: '{{#api.QueryParameters}}' },
      },
    });
    const response = await send(fixture.gatewayUrl, {
      path: '/errors?status=418&header=X-Backend:teapot&header=Set-Cookie:a=1&header=Set-Cookie:b=2',
    });
    expect(response.status).toBe(418);
    expect(response.headers['x-backend']).toBe('teapot');
    expect(response.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(response.headers['content-type']).toBe('application/json');
    expect(echoed(response).path).toBe('/e');
  });
});
