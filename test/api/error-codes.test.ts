import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statusOf, type HttpErrorCode } from '../../src-server/core/contracts/error-codes.js';
import { closedPort, startEchoUpstream, type Upstream } from '../helpers/upstreams.js';
import {
  send as sendHttp,
  sendRaw,
  startGatewayFixture,
  type GatewayFixture,
  type RawResponse,
} from './gateway/gateway-fixture.js';
import {
  createBackendVariable,
  entry,
  importApi,
  json,
  openApiDocument,
  send,
} from './management/helpers.js';

/** Every problem of one real server, of the Control Panel and of its gateway, by the code it must carry. */
let fixture: GatewayFixture;
let upstream: Upstream;

beforeAll(async () => {
  fixture = await startGatewayFixture();
  upstream = await startEchoUpstream();
});
afterAll(async () => {
  await fixture.close();
  await upstream.close();
});

/** A problem+json answer with the code, and the status the registry gives that code. */
async function expectCode(response: Response, code: HttpErrorCode): Promise<Record<string, unknown>> {
  const body = (await response.json()) as Record<string, unknown>;
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect({ status: response.status, code: body.code }).toEqual({ status: statusOf(code), code });
  expect(body.status).toBe(response.status);
  return body;
}

function expectRawCode(response: RawResponse, code: HttpErrorCode): Record<string, unknown> {
  const body = response.json() as Record<string, unknown>;
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect({ status: response.status, code: body.code }).toEqual({ status: statusOf(code), code });
  return body;
}

const api = (path: string, init?: Parameters<GatewayFixture['server']['api']>[1]) =>
  fixture.server.api(path, init);

/** A raw body to the environments route, which takes JSON up to 1 MiB. */
const postEnvironment = (body: string, contentType = 'application/json') =>
  api('/api/v1/environments', { method: 'POST', body, headers: { 'Content-Type': contentType } });

describe('Control Panel problems carry their code', () => {
  it('400: validation, JSON that does not parse, a missing body, an invalid API document', async () => {
    const invalid = await expectCode(
      await send(fixture.server, 'POST', '/api/v1/environments', {}),
      'GH_ERR_VALIDATION',
    );
    expect(Object.keys(invalid.errors as object)).toContain('name');
    await expectCode(await postEnvironment('{"name":'), 'GH_ERR_INVALID_JSON');
    await expectCode(await api('/api/v1/environments', { method: 'POST' }), 'GH_ERR_BODY_REQUIRED');
    const document = await expectCode(
      await api('/api/v1/apis', {
        method: 'POST',
        body: '{"openapi": "3.0.3"}',
        headers: { 'Content-Type': 'application/json' },
      }),
      'GH_ERR_INVALID_DOCUMENT',
    );
    expect(Object.keys(document.errors as object).length).toBeGreaterThan(0);
  });

  it('401 without a token and with a bad one, 403 for roles that do not allow the route', async () => {
    const none = await api('/api/v1/activities', { token: null });
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    await expectCode(none, 'GH_ERR_UNAUTHENTICATED');
    const bad = await api('/api/v1/activities', { token: 'not.a.jwt' });
    expect(bad.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
    await expectCode(bad, 'GH_ERR_INVALID_TOKEN');
    await expectCode(await api('/api/v1/activities', { roles: [] }), 'GH_ERR_FORBIDDEN');
  });

  it('404 for an unknown id and an unknown route, 405 with Allow', async () => {
    await expectCode(await api('/api/v1/environments/no-such-id'), 'GH_ERR_NOT_FOUND');
    await expectCode(await api('/api/v1/no-such-route'), 'GH_ERR_NOT_FOUND');
    // A path parameter that is not valid percent-encoding names no resource; its body was never read.
    await expectCode(await api('/api/v1/environments/%ZZ'), 'GH_ERR_NOT_FOUND');
    const wrongMethod = await api('/api/v1/activities', { method: 'DELETE' });
    expect(wrongMethod.headers.get('allow')).toBe('GET, HEAD');
    await expectCode(wrongMethod, 'GH_ERR_METHOD_NOT_ALLOWED');
  });

  it('409: a namesake, what is in use, the default agent group, an overlapping base path, a stale revision', async () => {
    expect((await send(fixture.server, 'POST', '/api/v1/environments', { name: 'Codes' })).status).toBe(201);
    const namesake = await expectCode(
      await send(fixture.server, 'POST', '/api/v1/environments', { name: 'codes' }),
      'GH_ERR_ALREADY_EXISTS',
    );
    expect(typeof namesake.conflictingId).toBe('string');
    const inUse = await expectCode(
      await api('/api/v1/environments/development', { method: 'DELETE' }),
      'GH_ERR_IN_USE',
    );
    expect(inUse.agentGroups).toEqual([expect.objectContaining({ id: 'default' })]);
    await expectCode(
      await api('/api/v1/agent-groups/default', { method: 'DELETE' }),
      'GH_ERR_DEFAULT_AGENT_GROUP',
    );

    const orders = await importApi(
      fixture.server,
      openApiDocument({ title: 'Codes', serverUrl: '/codes-api' }),
    );
    const overlap = await api('/api/v1/apis', {
      method: 'POST',
      body: openApiDocument({ title: 'Codes v2', serverUrl: '/codes-api/v2' }),
      headers: { 'Content-Type': 'application/json' },
    });
    expect((await expectCode(overlap, 'GH_ERR_BASE_PATH_OVERLAP')).conflictingApi).toMatchObject({
      id: orders.id,
    });

    await createBackendVariable(fixture.server);
    const path = `/api/v1/apis/${orders.id}/passthrough`;
    expect((await send(fixture.server, 'POST', path, { allOperations: entry() })).status).toBe(201);
    await expectCode(
      await send(fixture.server, 'POST', path, { allOperations: entry() }),
      'GH_ERR_PASSTHROUGH_EXISTS',
    );
    expect((await send(fixture.server, 'PUT', path, { revision: 1, allOperations: entry() })).status).toBe(
      200,
    );
    const stale = await expectCode(
      await send(fixture.server, 'PUT', path, { revision: 1, allOperations: entry() }),
      'GH_ERR_REVISION_MISMATCH',
    );
    expect(stale.revision).toBe(2);
  });

  it('413 for a body over the limit, 415 for another media type, 421 for a host not served', async () => {
    const huge = JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10) });
    await expectCode(await postEnvironment(huge), 'GH_ERR_PAYLOAD_TOO_LARGE');
    await expectCode(await postEnvironment('name=x', 'text/plain'), 'GH_ERR_UNSUPPORTED_MEDIA_TYPE');
    const elsewhere = await sendHttp(fixture.server.url, {
      path: '/api/v1/activities',
      headers: { Host: 'gatehouse.example' },
    });
    expectRawCode(elsewhere, 'GH_ERR_HOST_NOT_ALLOWED');
  });

  it('422: a deployment refused for missing variable values and for a legacy agent group', async () => {
    const target = await importApi(
      fixture.server,
      openApiDocument({ title: 'Unset', serverUrl: '/unset-api' }),
    );
    const missing = await expectCode(
      await send(fixture.server, 'POST', `/api/v1/apis/${target.id}/passthrough`, {
        allOperations: entry('{{#env.backend.region}}'),
      }),
      'GH_ERR_MISSING_VARIABLE_VALUES',
    );
    expect(missing.missingValues).toEqual([expect.objectContaining({ reference: '#env.backend.region' })]);

    const legacy = await json<{ id: string }>(
      await send(fixture.server, 'POST', '/api/v1/agent-groups', {
        name: 'Mainframe',
        environmentId: 'development',
        platform: 'legacy',
      }),
    );
    const onLegacy = await importApi(
      fixture.server,
      openApiDocument({ title: 'Old', serverUrl: '/old-api' }),
      {
        query: `agentGroupId=${legacy.id}`,
      },
    );
    const refused = await expectCode(
      await send(fixture.server, 'POST', `/api/v1/apis/${onLegacy.id}/passthrough`, {
        allOperations: entry(),
      }),
      'GH_ERR_LEGACY_AGENT_GROUP',
    );
    expect(refused.legacyAgentGroups).toEqual([{ id: legacy.id, name: 'Mainframe' }]);
  });

  it('Try it: 409 when there is nothing deployed to try', async () => {
    const bare = await importApi(fixture.server, openApiDocument({ title: 'Bare', serverUrl: '/bare-api' }));
    await expectCode(
      await send(fixture.server, 'POST', `/api/v1/apis/${bare.id}/passthrough/try`, {
        method: 'GET',
        path: '/',
      }),
      'GH_ERR_NOT_DEPLOYED',
    );
  });

  it('is described with its code by the OpenAPI document', async () => {
    const document = await json<{
      components: { schemas: Record<string, { properties: Record<string, unknown>; required: string[] }> };
    }>(await api('/swagger/v1/swagger.json'));
    const problem = document.components.schemas.ProblemDetails!;
    expect(problem.properties.code).toMatchObject({ type: 'string', pattern: '^GH_ERR_[A-Z0-9_]+$' });
    expect(problem.required).toContain('code');
  });
});

describe("the gateway's own refusals carry their code", () => {
  beforeAll(async () => {
    await fixture.setVariable('codes', { url: upstream.url });
    await fixture.routeAll('/open', upstream.url, {
      maxRequestBodyBytes: 16,
      timeouts: { connectMs: 5_000, responseMs: 300 },
    });
    await fixture.routeAll('/refused', `http://127.0.0.1:${await closedPort()}`);
    await fixture.routeAll('/unset', '{{#env.codes.missing}}');
    await fixture.routeAll('/keyed', upstream.url);
    await fixture.routeAll('/closed', upstream.url);
    await fixture.routeAll('/throttled', upstream.url);
    const strict = await fixture.addApi({ basePath: '/strict', operations: ['GET /items', 'POST /items'] });
    await fixture.setPassthrough(strict.id, {
      operations: { 'GET /items': { target: { section1: upstream.url } } },
    });
    for (const prefix of ['/open', '/refused', '/unset', '/strict'])
      await fixture.addPolicy({
        endpoints: [{ method: 'ALL', pathPrefix: prefix }],
        grants: [{ type: 'public' }],
      });
    await fixture.addPolicy({
      endpoints: [{ method: 'ALL', pathPrefix: '/throttled' }],
      grants: [{ type: 'public' }],
      throttle: { limit: 1, per: 'hour' },
    });
    const keyed = await fixture.addPolicy({
      endpoints: [{ method: 'ALL', pathPrefix: '/keyed' }],
      grants: [{ type: 'apiKey' }],
    });
    const other = await fixture.addPolicy({
      endpoints: [{ method: 'ALL', pathPrefix: '/elsewhere' }],
      grants: [{ type: 'apiKey' }],
    });
    keys.valid = await fixture.addApiKey({ policyIds: [keyed.id] });
    keys.foreign = await fixture.addApiKey({ policyIds: [other.id] });
  });
  const keys = { valid: '', foreign: '' };
  const gateway = (path: string, options: Parameters<typeof sendHttp>[1] = {}) =>
    sendHttp(fixture.gatewayUrl, { ...options, path });

  it('400 for a refused request target and for bytes that are not HTTP', async () => {
    expectRawCode(await gateway('/open/a%2Fb'), 'GH_ERR_BAD_REQUEST_TARGET');
    const raw = await sendRaw(fixture.gatewayUrl, 'NOT HTTP AT ALL\r\n\r\n');
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toMatchObject({
      status: 400,
      code: 'GH_ERR_MALFORMED_REQUEST',
    });
  });

  it('401 without a policy, without credentials and with wrong ones; 403 for a key of another policy', async () => {
    expectRawCode(await gateway('/closed/items'), 'GH_ERR_NO_POLICY');
    expectRawCode(await gateway('/keyed/items'), 'GH_ERR_UNAUTHENTICATED');
    expectRawCode(
      await gateway('/keyed/items', { headers: { 'X-API-Key': 'gh_not-a-key' } }),
      'GH_ERR_INVALID_CREDENTIALS',
    );
    expectRawCode(
      await gateway('/keyed/items', { headers: { 'X-API-Key': keys.foreign } }),
      'GH_ERR_FORBIDDEN',
    );
    expect((await gateway('/keyed/items', { headers: { 'X-API-Key': keys.valid } })).status).toBe(200);
  });

  it('404 where no endpoint matches, 405 with Allow, 413 over the body limit, 429 over the throttle', async () => {
    expectRawCode(await gateway('/nowhere'), 'GH_ERR_NO_ENDPOINT');
    const wrongMethod = await gateway('/strict/items', { method: 'DELETE' });
    expect(wrongMethod.headers.allow).toBe('GET');
    expectRawCode(wrongMethod, 'GH_ERR_METHOD_NOT_ALLOWED');
    expectRawCode(
      await gateway('/open/items', {
        method: 'POST',
        body: 'x'.repeat(64),
        headers: { 'Content-Type': 'text/plain' },
      }),
      'GH_ERR_PAYLOAD_TOO_LARGE',
    );
    expect((await gateway('/throttled/items')).status).toBe(200);
    expectRawCode(await gateway('/throttled/items'), 'GH_ERR_THROTTLED');
  });

  it('502 for a target that refuses the connection, 503 for a configuration that cannot apply, 504 for a slow target', async () => {
    expectRawCode(await gateway('/refused/items'), 'GH_ERR_UPSTREAM_UNREACHABLE');
    expectRawCode(await gateway('/unset/items'), 'GH_ERR_PASSTHROUGH_MISCONFIGURED');
    expectRawCode(await gateway('/open/items?delay=1500'), 'GH_ERR_UPSTREAM_TIMEOUT');
  });
});
