import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestOidcProvider, type TestOidcProvider } from '../../helpers/oidc-provider.js';
import { startEchoUpstream, type EchoedRequest, type Upstream } from '../../helpers/upstreams.js';
import {
  recordsFor,
  send,
  startGatewayFixture,
  type GatewayFixture,
  type RawResponse,
} from './gateway-fixture.js';

let fixture: GatewayFixture;
let upstream: Upstream;
let oidc: TestOidcProvider;

beforeAll(async () => {
  fixture = await startGatewayFixture();
  upstream = await startEchoUpstream();
  oidc = await startTestOidcProvider();
  const base = async (basePath: string) => {
    const api = await fixture.addApi({ basePath });
    await fixture.setPassthrough(api.id, {
      allOperations: {
        target: {
          section1: upstream.url,
          section2: basePath.slice(1),
          section3: '{{#api.OperationPath}}',
          section4: '{{#api.QueryParameters}}',
        },
      },
    });
  };
  for (const path of ['/open', '/keyed', '/query-keyed', '/jwt', '/mixed', '/limited', '/nobody'])
    await base(path);
});
afterAll(async () => {
  await fixture.close();
  await upstream.close();
  await oidc.close();
});

const detailOf = (response: RawResponse) => (response.json() as { detail: string }).detail;
const echoed = (response: RawResponse) => response.json() as EchoedRequest;

describe('API policies at the gateway', () => {
  it('has no implicit public access: an endpoint no policy covers answers 401', async () => {
    const response = await send(fixture.gatewayUrl, { path: '/nobody/x' });
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toContain('realm="Default"');
    expect(detailOf(response)).toBe('No API policy grants access to this endpoint.');
    const [record] = await recordsFor(fixture, '/nobody/x');
    expect(record).toMatchObject({ outcome: 'unauthenticated', status: 401 });
  });

  it('grants public access where a public policy covers the path (whole segments only)', async () => {
    await fixture.addPolicy({
      endpoints: [{ method: 'ALL', pathPrefix: '/open' }],
      grants: [{ type: 'public' }],
    });
    expect((await send(fixture.gatewayUrl, { path: '/open/a' })).status).toBe(200);
    expect((await send(fixture.gatewayUrl, { path: '/openx/a' })).status).toBe(404);
    const [record] = await recordsFor(fixture, '/open/a');
    expect(record!.identity).toBe('public');
  });

  it('checks API keys in the default header, takes the key out, refuses unknown and expired keys', async () => {
    const policy = await fixture.addPolicy({
      endpoints: [{ method: 'ALL', pathPrefix: '/keyed' }],
      grants: [{ type: 'apiKey' }],
    });
    const key = await fixture.addApiKey({ policyIds: [policy.id] });
    const ok = await send(fixture.gatewayUrl, { path: '/keyed/a', headers: { 'X-API-Key': key } });
    expect(ok.status).toBe(200);
    expect(echoed(ok).headers['x-api-key']).toBeUndefined();
    const [record] = await recordsFor(fixture, '/keyed/a');
    expect(key).toMatch(/^gatehouse_/);
    expect(record!.identity).toBe(`apiKey:${key.slice(0, 17)}`);

    // A key of an earlier version (gh_…, which secret scanners took for a GitHub token) keeps working.
    const earlier = await fixture.addApiKey({
      policyIds: [policy.id],
      key: `gh_${randomBytes(32).toString('base64url')}`,
    });
    const kept = await send(fixture.gatewayUrl, { path: '/keyed/a2', headers: { 'X-API-Key': earlier } });
    expect(kept.status).toBe(200);
    const [earlierRecord] = await recordsFor(fixture, '/keyed/a2');
    expect(earlierRecord!.identity).toBe(`apiKey:${earlier.slice(0, 10)}`);

    const missing = await send(fixture.gatewayUrl, { path: '/keyed/b' });
    expect(missing.status).toBe(401);
    expect(missing.headers['www-authenticate']).toBe('ApiKey realm="Default", header="X-API-Key"');
    const wrong = await send(fixture.gatewayUrl, {
      path: '/keyed/c',
      headers: { 'X-API-Key': `${key.slice(0, -3)}abc` },
    });
    expect(wrong.status).toBe(401);

    const expired = await fixture.addApiKey({
      policyIds: [policy.id],
      expiresAt: new Date(Date.now() - 1000).toISOString(),
    });
    const late = await send(fixture.gatewayUrl, { path: '/keyed/d', headers: { 'X-API-Key': expired } });
    expect(late.status).toBe(401);
    expect(detailOf(late)).toBe('The API key has expired.');

    // A key of another environment is unknown here.
    await fixture.update((data) => {
      data.environments.push({ id: 'production', name: 'Production', createdAt: '', updatedAt: '' });
    });
    const foreign = await fixture.addApiKey({ environmentId: 'production' });
    expect(
      (await send(fixture.gatewayUrl, { path: '/keyed/e', headers: { 'X-API-Key': foreign } })).status,
    ).toBe(401);
  });

  it('reads keys from a configured query parameter and removes it from the forwarded URL', async () => {
    await fixture.addPolicy({
      endpoints: [{ method: 'GET', pathPrefix: '/query-keyed' }],
      grants: [{ type: 'apiKey', queryName: 'api_key', headerName: 'X-Custom-Key' }],
    });
    const key = await fixture.addApiKey();
    const viaQuery = await send(fixture.gatewayUrl, { path: `/query-keyed/x?a=1&api_key=${key}&b=2` });
    expect(viaQuery.status).toBe(200);
    expect(echoed(viaQuery).url).toBe('/query-keyed/x?a=1&b=2');
    const viaHeader = await send(fixture.gatewayUrl, {
      path: '/query-keyed/y',
      headers: { 'X-Custom-Key': key },
    });
    expect(viaHeader.status).toBe(200);
    expect(echoed(viaHeader).headers['x-custom-key']).toBeUndefined();
    // The grant names GET only.
    expect(
      (await send(fixture.gatewayUrl, { method: 'POST', path: `/query-keyed/z?api_key=${key}` })).status,
    ).toBe(401);
  });

  it('answers 403 to a known caller that no applicable policy grants', async () => {
    const other = await fixture.addPolicy({
      endpoints: [{ method: 'ALL', pathPrefix: '/elsewhere' }],
      grants: [{ type: 'apiKey' }],
    });
    const key = await fixture.addApiKey({ policyIds: [other.id] });
    const response = await send(fixture.gatewayUrl, { path: '/keyed/f', headers: { 'X-API-Key': key } });
    expect(response.status).toBe(403);
    const [record] = await recordsFor(fixture, '/keyed/f');
    expect(record).toMatchObject({ outcome: 'denied', identity: `apiKey:${key.slice(0, 17)}` });
  });

  it('prefers method policies over ALL and the longest prefix among them', async () => {
    await fixture.addPolicy({
      endpoints: [{ method: 'ALL', pathPrefix: '/mixed' }],
      grants: [{ type: 'public' }],
    });
    await fixture.addPolicy({
      endpoints: [{ method: 'DELETE', pathPrefix: '/mixed' }],
      grants: [{ type: 'apiKey' }],
    });
    await fixture.addPolicy({
      endpoints: [{ method: 'GET', pathPrefix: '/mixed/admin' }],
      grants: [{ type: 'apiKey' }],
    });
    expect((await send(fixture.gatewayUrl, { method: 'DELETE', path: '/mixed/a' })).status).toBe(401);
    expect((await send(fixture.gatewayUrl, { method: 'GET', path: '/mixed/a' })).status).toBe(200);
    expect((await send(fixture.gatewayUrl, { method: 'GET', path: '/mixed/admin/x' })).status).toBe(401);
    expect((await send(fixture.gatewayUrl, { method: 'GET', path: '/mixed/administrator' })).status).toBe(
      200,
    );
    // Encoding does not dodge a prefix.
    expect((await send(fixture.gatewayUrl, { method: 'GET', path: '/mixed/%61dmin/x' })).status).toBe(401);
  });

  it('verifies JWTs with the issuer’s discovery document and keys, audience and claim rules', async () => {
    await fixture.addPolicy({
      endpoints: [{ method: 'ALL', pathPrefix: '/jwt' }],
      grants: [
        {
          type: 'jwt',
          issuer: oidc.issuer,
          audience: 'api://orders',
          claims: [{ claim: 'scope', values: ['orders.read'] }],
        },
      ],
    });
    const good = await oidc.sign(
      { sub: 'alice', scope: 'profile orders.read' },
      { audience: 'api://orders' },
    );
    const response = await send(fixture.gatewayUrl, {
      path: '/jwt/a',
      headers: { Authorization: `Bearer ${good}` },
    });
    expect(response.status).toBe(200);
    expect(echoed(response).headers.authorization).toBe(`Bearer ${good}`);
    const [record] = await recordsFor(fixture, '/jwt/a');
    expect(record!.identity).toBe('jwt:alice');

    const noScope = await oidc.sign({ sub: 'bob', scope: 'profile' }, { audience: 'api://orders' });
    expect(
      (await send(fixture.gatewayUrl, { path: '/jwt/b', headers: { Authorization: `Bearer ${noScope}` } }))
        .status,
    ).toBe(403);
    const otherAudience = await oidc.sign({ sub: 'carol', scope: 'orders.read' }, { audience: 'api://else' });
    const wrongAudience = await send(fixture.gatewayUrl, {
      path: '/jwt/c',
      headers: { Authorization: `Bearer ${otherAudience}` },
    });
    expect(wrongAudience.status).toBe(401);
    expect(wrongAudience.headers['www-authenticate']).toBe('Bearer realm="Default", error="invalid_token"');
    const expired = await oidc.sign(
      { sub: 'dave', scope: 'orders.read' },
      { audience: 'api://orders', expiresIn: '-5m' },
    );
    expect(
      (await send(fixture.gatewayUrl, { path: '/jwt/d', headers: { Authorization: `Bearer ${expired}` } }))
        .status,
    ).toBe(401);
    expect(
      (await send(fixture.gatewayUrl, { path: '/jwt/e', headers: { Authorization: 'Bearer not.a.token' } }))
        .status,
    ).toBe(401);
    const none = await send(fixture.gatewayUrl, { path: '/jwt/f' });
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer realm="Default"');
    // Keys were fetched once and cached.
    expect(oidc.requests.discovery).toBe(1);
    expect(oidc.requests.jwks).toBe(1);
  });

  it('throttles per identity and answers 429 with Retry-After', async () => {
    const policy = await fixture.addPolicy({
      endpoints: [{ method: 'ALL', pathPrefix: '/limited' }],
      grants: [{ type: 'apiKey' }],
      throttle: { limit: 3, per: 'hour' },
    });
    const first = await fixture.addApiKey({ policyIds: [policy.id] });
    const second = await fixture.addApiKey({ policyIds: [policy.id] });
    for (let i = 0; i < 3; i++) {
      expect(
        (await send(fixture.gatewayUrl, { path: '/limited/x', headers: { 'X-API-Key': first } })).status,
      ).toBe(200);
    }
    const throttled = await send(fixture.gatewayUrl, { path: '/limited/x', headers: { 'X-API-Key': first } });
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    expect(
      (await send(fixture.gatewayUrl, { path: '/limited/x', headers: { 'X-API-Key': second } })).status,
    ).toBe(200);
    const records = await recordsFor(fixture, '/limited/x', 5);
    expect(records.map((record) => record.outcome)).toEqual([
      'forwarded',
      'forwarded',
      'forwarded',
      'throttled',
      'forwarded',
    ]);
  });
});
