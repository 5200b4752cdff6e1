import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../src-server/core/audit/audit-entry.js';
import { closedPort, startEchoUpstream, type EchoedRequest, type Upstream } from '../../helpers/upstreams.js';
import { ordersPassthrough, startGatewayFixture, type GatewayFixture } from './gateway-fixture.js';

interface TryResult {
  agentGroup: { id: string; name: string };
  request: { method: string; url: string; traceparent: string };
  targetUrl: string | null;
  outcome: string | null;
  reason?: string;
  operation?: string;
  status: number;
  statusText: string;
  headers: { name: string; value: string }[];
  body: string;
  bodyEncoding: 'text' | 'base64';
  bodyBytes: number;
  bodyTruncated: boolean;
  durationMs: number;
}

const SECRET = 'try-secret-9134';
let fixture: GatewayFixture;
let upstream: Upstream;
let shopId: string;
let secureId: string;
let apiKey: string;

beforeAll(async () => {
  fixture = await startGatewayFixture();
  upstream = await startEchoUpstream();
  await fixture.setVariable('backend', { url: upstream.url, token: SECRET }, { secret: ['token'] });
  const shop = await fixture.addApi({
    basePath: '/shop/v1',
    operations: ['GET /orders/{id}', 'POST /orders'],
  });
  shopId = shop.id;
  await fixture.setPassthrough(shop.id, ordersPassthrough([{ action: 'Remove', name: 'X-Drop' }]));
  await fixture.addPolicy({
    endpoints: [{ method: 'ALL', pathPrefix: '/shop' }],
    grants: [{ type: 'public' }],
  });

  const secure = await fixture.addApi({ basePath: '/secure' });
  secureId = secure.id;
  await fixture.setPassthrough(secure.id, {
    allOperations: {
      target: { section1: upstream.url, section2: 'secure', section3: '{{#api.OperationPath}}' },
    },
  });
  const keyed = await fixture.addPolicy({
    endpoints: [{ method: 'ALL', pathPrefix: '/secure' }],
    grants: [{ type: 'apiKey' }],
  });
  apiKey = await fixture.addApiKey({ policyIds: [keyed.id] });
});
afterAll(async () => {
  await fixture.close();
  await upstream.close();
});

async function tryIt(
  body: unknown,
  options: { apiId?: string; roles?: string[]; userName?: string } = {},
): Promise<{ status: number; json: TryResult & Record<string, unknown> }> {
  const response = await fixture.server.api(`/api/v1/apis/${options.apiId ?? shopId}/passthrough/try`, {
    method: 'POST',
    body: typeof body === 'string' ? body : JSON.stringify(body),
    roles: options.roles,
    userName: options.userName,
  });
  return { status: response.status, json: (await response.json()) as TryResult & Record<string, unknown> };
}

/** The (latest) `Passthroughs.Try` audit entry of `userName`. */
async function tryAuditEntry(userName: string): Promise<AuditEntry | undefined> {
  const audit = await fixture.server.gatehouse.audit.store.query({
    actionName: 'Passthroughs.Try',
    userName,
    pageNumber: 1,
    pageSize: 10,
  });
  const [entry] = audit.items;
  return entry;
}

function lastUpstreamRequest(): EchoedRequest {
  return upstream.requests.at(-1)!;
}

describe('POST /api/v1/apis/{apiId}/passthrough/try', () => {
  it('sends the request through the gateway and shows the target URL built from #env, masked', async () => {
    const { status, json } = await tryIt({
      method: 'get',
      path: '/orders/42',
      headers: [
        { name: 'X-Custom', value: 'hello' },
        { name: 'X-Drop', value: 'gone' },
      ],
    });
    expect(status).toBe(200);
    expect(json).toMatchObject({
      agentGroup: { id: 'default' },
      request: { method: 'GET', url: `${fixture.gatewayUrl}/shop/v1/orders/42` },
      targetUrl: `${upstream.url}/orders/42?key=********`,
      outcome: 'forwarded',
      operation: 'GET /orders/{id}',
      status: 200,
      statusText: 'OK',
      bodyEncoding: 'text',
      bodyTruncated: false,
    });
    expect(json.durationMs).toBeGreaterThan(0);
    expect(json.headers).toContainEqual({ name: 'Content-Type', value: 'application/json' });

    // What the upstream received: the header rules applied, the traceparent the response names.
    const received = lastUpstreamRequest();
    expect(received.url).toBe(`/orders/42?key=${SECRET}`);
    expect(received.headers).toMatchObject({
      authorization: `Bearer ${SECRET}`,
      'x-order': '42',
      'x-custom': 'hello',
      traceparent: json.request.traceparent,
    });
    expect(received.headers['x-drop']).toBeUndefined();

    // The echo reflects the secret; the answer shown in the editor does not.
    const echoed = JSON.parse(json.body) as EchoedRequest;
    expect(echoed.headers.authorization).toBe('Bearer ********');
    expect(JSON.stringify(json)).not.toContain(SECRET);
  });

  it('masks a literal credential header value the target echoes back', async () => {
    const literal = 'literal-try-7781';
    const api = await fixture.addApi({ basePath: '/literal' });
    await fixture.setPassthrough(api.id, {
      allOperations: {
        target: { section1: upstream.url, section2: 'literal', section3: '{{#api.OperationPath}}' },
        headers: [{ action: 'Overwrite', name: 'Authorization', value: `Bearer ${literal}` }],
      },
    });
    await fixture.addPolicy({
      endpoints: [{ method: 'ALL', pathPrefix: '/literal' }],
      grants: [{ type: 'public' }],
    });
    const { status, json } = await tryIt({ method: 'GET', path: '/echo' }, { apiId: api.id });
    expect(status).toBe(200);
    expect(lastUpstreamRequest().headers.authorization).toBe(`Bearer ${literal}`);
    expect((JSON.parse(json.body) as EchoedRequest).headers.authorization).toBe('********');
    expect(JSON.stringify(json)).not.toContain(literal);
  });

  it('takes a full path with its query, sends the body, and encodes spaces', async () => {
    const { json } = await tryIt({
      method: 'POST',
      path: '/shop/v1/orders?note=a b',
      headers: [{ name: 'Content-Type', value: 'application/json' }],
      body: '{"item":"tea"}',
    });
    expect(json).toMatchObject({ status: 200, outcome: 'forwarded', operation: 'POST /orders' });
    expect(json.targetUrl).toBe(`${upstream.url}/all/orders?note=a%20b`);
    const received = lastUpstreamRequest();
    expect(received).toMatchObject({ method: 'POST', bodyBytes: 14 });
    expect(received.headers['content-type']).toBe('application/json');
  });

  it("relays the target's error status and headers, and the gateway's own 502", async () => {
    const relayed = await tryIt({ method: 'GET', path: '/teapot?status=418&header=x-up:yes' });
    expect(relayed.status).toBe(200);
    expect(relayed.json).toMatchObject({ status: 418, outcome: 'forwarded' });
    expect(relayed.json.headers).toContainEqual({ name: 'x-up', value: 'yes' });
    expect(relayed.json.targetUrl).toContain(`${upstream.url}/all/teapot?status=418`);

    const down = await fixture.addApi({ basePath: '/down' });
    await fixture.setPassthrough(down.id, {
      allOperations: { target: { section1: `http://127.0.0.1:${await closedPort()}`, section2: 'x' } },
    });
    await fixture.addPolicy({
      endpoints: [{ method: 'ALL', pathPrefix: '/down' }],
      grants: [{ type: 'public' }],
    });
    const failed = await tryIt({ method: 'GET', path: '/a' }, { apiId: down.id });
    expect(failed.status).toBe(200);
    expect(failed.json).toMatchObject({ status: 502, outcome: 'upstream-error' });
    expect(failed.json.targetUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/x/);
    expect(JSON.parse(failed.json.body)).toMatchObject({
      status: 502,
      title: 'Bad Gateway',
      code: 'GH_ERR_UPSTREAM_UNREACHABLE',
    });
  });

  it('shows a binary body as base64 and keeps only the first 256 KiB', async () => {
    const { json } = await tryIt({ method: 'GET', path: '/big?bytes=300000' });
    expect(json).toMatchObject({
      status: 200,
      outcome: 'forwarded',
      bodyEncoding: 'base64',
      bodyBytes: 300_000,
      bodyTruncated: true,
    });
    expect(Buffer.from(json.body, 'base64').length).toBe(256 * 1024);
  });

  it('shows the gateway 401 when no policy grants, and forwards with the API key header', async () => {
    const refused = await tryIt({ method: 'GET', path: '/thing?token=zz-query-secret' }, { apiId: secureId });
    expect(refused.status).toBe(200);
    expect(refused.json).toMatchObject({ status: 401, outcome: 'unauthenticated', targetUrl: null });
    expect(refused.json.headers).toContainEqual({
      name: 'WWW-Authenticate',
      value: 'ApiKey realm="Default", header="X-API-Key"',
    });
    expect(refused.json.request.url).toBe(`${fixture.gatewayUrl}/secure/thing?token=********`);

    const userName = `try-${randomUUID().slice(0, 8)}`;
    const granted = await tryIt(
      { method: 'GET', path: '/thing', headers: [{ name: 'X-API-Key', value: apiKey }] },
      { apiId: secureId, userName },
    );
    expect(granted.json).toMatchObject({
      status: 200,
      outcome: 'forwarded',
      targetUrl: `${upstream.url}/secure/thing`,
    });

    const entry = await tryAuditEntry(userName);
    expect(entry).toMatchObject({
      statusCode: 200,
      resources: [{ type: 'Api', id: secureId }],
      agentGroup: { id: 'default' },
      parameters: {
        apiId: secureId,
        method: 'GET',
        path: '/thing',
        headers: [{ name: 'X-API-Key', value: '********' }],
        result: { status: 200, outcome: 'forwarded' },
      },
    });
    expect(JSON.stringify(entry)).not.toContain(apiKey);
  });

  it('audits refusals with masked query values, header values and the body size only', async () => {
    const userName = `try-${randomUUID().slice(0, 8)}`;
    const { status } = await tryIt(
      {
        method: 'POST',
        path: '/orders?api_key=zz-in-query',
        headers: [
          { name: 'Authorization', value: 'Bearer zz-in-header' },
          { name: 'X-Partner', value: 'visible' },
        ],
        body: '{"password":"zz-in-body"}',
        agentGroupId: 'missing-group',
      },
      { userName },
    );
    expect(status).toBe(404);
    const entry = await tryAuditEntry(userName);
    expect(entry).toMatchObject({
      statusCode: 404,
      parameters: {
        path: '/orders?api_key=********',
        headers: [
          { name: 'Authorization', value: '********' },
          { name: 'X-Partner', value: 'visible' },
        ],
        body: '(25 bytes)',
      },
    });
    expect(JSON.stringify(entry)).not.toContain('zz-in');
  });

  it('answers invalid requests with 400 validation problems naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ path: '/a' }, 'method'],
      [{ method: 'TRACE', path: '/a' }, 'method'],
      [{ method: 'GET', path: 'http://evil.example/a' }, 'path'],
      [{ method: 'GET', path: '/a\r\nX: y' }, 'path'],
      [{ method: 'GET', path: '/a', headers: [{ name: 'Host', value: 'evil.example' }] }, 'headers[0].name'],
      [{ method: 'GET', path: '/a', headers: [{ name: 'X-Ok', value: 'a\nb' }] }, 'headers[0].value'],
      [{ method: 'GET', path: '/a', headers: [{ name: 'Bad Name', value: 'x' }] }, 'headers[0].name'],
      [{ method: 'GET', path: '/a', body: 'not for GET' }, 'body'],
      [{ method: 'GET', path: '/a', timeoutMs: 10 }, 'timeoutMs'],
      [{ method: 'GET', path: '/a', extra: true }, 'body'],
    ];
    for (const [body, field] of cases) {
      const { status, json } = await tryIt(body);
      expect(status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(json.errors as object), JSON.stringify(body)).toContain(field);
    }
    const notJson = await tryIt('{"method":');
    expect(notJson.status).toBe(400);
  });

  it('says why a request cannot be tried: unknown API, no passthrough, legacy or unassigned group', async () => {
    expect((await tryIt({ method: 'GET', path: '/' }, { apiId: randomUUID() })).status).toBe(404);
    const bare = await fixture.addApi({ basePath: '/bare' });
    const userName = `refused-${randomUUID().slice(0, 8)}`;
    const noPassthrough = await tryIt({ method: 'GET', path: '/' }, { apiId: bare.id, userName });
    expect(noPassthrough.status).toBe(409);
    expect(noPassthrough.json.detail).toMatch(/no saved Passthrough/);
    // The refusal is audited against the API it named.
    expect(await tryAuditEntry(userName)).toMatchObject({
      statusCode: 409,
      resources: [{ type: 'Api', id: bare.id }],
    });

    await fixture.update((data) => {
      data.agentGroups.push({
        id: 'old-agents',
        name: 'Old agents',
        environmentId: 'development',
        platform: 'legacy',
        host: '127.0.0.1',
        port: 0,
        createdAt: '',
        updatedAt: '',
      });
    });
    const legacy = await fixture.addApi({ basePath: '/legacy', agentGroupIds: ['old-agents'] });
    await fixture.setPassthrough(legacy.id, { allOperations: { target: { section1: upstream.url } } });
    const onLegacy = await tryIt({ method: 'GET', path: '/' }, { apiId: legacy.id });
    expect(onLegacy.status).toBe(422);
    expect(onLegacy.json.code).toBe('GH_ERR_LEGACY_AGENT_GROUP');
    expect(onLegacy.json.detail).toMatch(/cross-platform/);
    const unassigned = await tryIt({ method: 'GET', path: '/', agentGroupId: 'old-agents' });
    expect(unassigned.status).toBe(422);
    expect(unassigned.json.code).toBe('GH_ERR_NOT_IN_AGENT_GROUP');
    expect(unassigned.json.detail).toMatch(/not assigned/);
  });

  it('is refused to Auditors and allowed to Administrators', async () => {
    const auditor = await tryIt({ method: 'GET', path: '/orders/1' }, { roles: ['Auditor'] });
    expect(auditor.status).toBe(403);
    const administrator = await tryIt({ method: 'GET', path: '/orders/1' }, { roles: ['Administrator'] });
    expect(administrator.json).toMatchObject({ status: 200, outcome: 'forwarded' });
  });

  it('answers 504 when the gateway does not answer within the time limit, naming the target', async () => {
    const { status, json } = await tryIt({ method: 'GET', path: '/slow?delay=3000', timeoutMs: 1000 });
    expect(status).toBe(504);
    expect(json.code).toBe('GH_ERR_TRY_IT_TIMEOUT');
    expect(json.targetUrl).toBe(`${upstream.url}/all/slow?delay=3000`);
  });

  it('is documented in the management OpenAPI document under Passthroughs', async () => {
    const document = (await (await fixture.server.api('/swagger/v1/swagger.json')).json()) as {
      paths: Record<string, Record<string, { tags: string[]; operationId: string; responses: object }>>;
    };
    const operation = document.paths['/api/v1/apis/{apiId}/passthrough/try']!.post!;
    expect(operation.tags).toEqual(['Passthroughs']);
    expect(operation.operationId).toBe('tryPassthrough');
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '400', '403', '409']));
  });
});
