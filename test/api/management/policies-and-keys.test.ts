import { storedConfigText } from '../../helpers/stored-config.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyDigest } from '../../../src-server/control/policies/api-key-digest.js';
import type { ApiKeyRecord } from '../../../src-server/core/model/config-model.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';
import { expectProblem, json, send } from './helpers.js';

interface Policy {
  id: string;
  name: string;
  agentGroupId: string;
  endpoints: { method: string; pathPrefix: string }[];
  grants: Record<string, unknown>[];
  throttle?: { limit: number; per: string };
}

describe('policies and API keys', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ settings: { 'Flags:EnableServiceApiAuditLogRoute': true } });
  });
  afterAll(() => server.close());

  async function createPolicy(body: Record<string, unknown>): Promise<Policy> {
    const response = await send(server, 'POST', '/api/v1/policies', body);
    const created = await json<Policy>(response);
    if (response.status !== 201) expect.fail(`${response.status} ${JSON.stringify(created)}`);
    return created;
  }

  it('creates policies with each grant type, normalising paths and methods', async () => {
    const policy = await createPolicy({
      name: 'Partners',
      agentGroupId: 'default',
      endpoints: [{ method: 'get', pathPrefix: '/orders-api/v1//orders/' }, { pathPrefix: '/inventory' }],
      grants: [
        { type: 'apiKey', queryName: 'key' },
        {
          type: 'jwt',
          issuer: 'https://login.example.com/tenant',
          audience: 'api://orders',
          claims: [{ claim: 'roles', values: ['orders.read'] }],
        },
        { type: 'jwt', issuer: 'http://localhost:8081/realms/dev', audience: 'dev' },
      ],
      throttle: { limit: 10, per: 'hour' },
    });
    expect(policy.endpoints).toEqual([
      { method: 'GET', pathPrefix: '/orders-api/v1/orders' },
      { method: 'ALL', pathPrefix: '/inventory' },
    ]);
    expect(policy.grants[0]).toEqual({ type: 'apiKey', headerName: 'X-API-Key', queryName: 'key' });
    expect(policy.grants[2]).toMatchObject({ claims: [] });
    expect((await json<Policy>(await server.api(`/api/v1/policies/${policy.id}`))).name).toBe('Partners');
  });

  it('validates grants, endpoints and throttles (400) and conflicts (409)', async () => {
    const base = {
      name: 'P',
      agentGroupId: 'default',
      endpoints: [{ pathPrefix: '/p' }],
      grants: [{ type: 'public' }],
    };
    const cases: [Record<string, unknown>, string][] = [
      [
        { ...base, grants: [{ type: 'jwt', issuer: 'http://login.example.com', audience: 'a' }] },
        'grants[0].issuer',
      ],
      [{ ...base, grants: [{ type: 'jwt', issuer: 'not a url', audience: 'a' }] }, 'grants[0].issuer'],
      [
        { ...base, grants: [{ type: 'jwt', issuer: 'https://login.example.com', audience: '' }] },
        'grants[0].audience',
      ],
      [{ ...base, grants: [{ type: 'apiKey', headerName: 'Bad Header' }] }, 'grants[0].headerName'],
      [{ ...base, grants: [{ type: 'public' }, { type: 'apiKey' }] }, 'grants'],
      [{ ...base, grants: [] }, 'grants'],
      [{ ...base, grants: [{ type: 'magic' }] }, 'grants[0].type'],
      [{ ...base, endpoints: [] }, 'endpoints'],
      [{ ...base, endpoints: [{ pathPrefix: 'no-slash' }] }, 'endpoints[0].pathPrefix'],
      [{ ...base, endpoints: [{ pathPrefix: '/a?b' }] }, 'endpoints[0].pathPrefix'],
      [{ ...base, endpoints: [{ method: 'FETCH', pathPrefix: '/a' }] }, 'endpoints[0].method'],
      [{ ...base, throttle: { limit: 0, per: 'minute' } }, 'throttle.limit'],
      [{ ...base, throttle: { limit: 1, per: 'week' } }, 'throttle.per'],
      [{ ...base, agentGroupId: 'nope' }, 'agentGroupId'],
    ];
    for (const [body, field] of cases) {
      const problem = await expectProblem(await send(server, 'POST', '/api/v1/policies', body), 400);
      expect(Object.keys(problem.errors!), JSON.stringify(body)).toContain(field);
    }
    await createPolicy({ ...base, name: 'Open p' });
    const sameName = await expectProblem(
      await send(server, 'POST', '/api/v1/policies', {
        ...base,
        name: 'OPEN P',
        endpoints: [{ pathPrefix: '/q' }],
      }),
      409,
    );
    expect(sameName).toMatchObject({ code: 'GH_ERR_ALREADY_EXISTS', title: 'That name is already taken' });
    expect(sameName.errors).toEqual({
      name: ["This agent group already has a policy named 'Open p'. Choose another name."],
    });
    const sameEndpoint = await expectProblem(
      await send(server, 'POST', '/api/v1/policies', { ...base, name: 'Other' }),
      409,
    );
    expect(sameEndpoint.detail).toContain("'Open p'");
  });

  it('modifies and deletes policies', async () => {
    const policy = await createPolicy({
      name: 'Changing',
      agentGroupId: 'default',
      endpoints: [{ pathPrefix: '/changing' }],
      grants: [{ type: 'public' }],
      throttle: { limit: 5, per: 'day' },
    });
    const changed = await json<Policy>(
      await send(server, 'PATCH', `/api/v1/policies/${policy.id}`, { name: 'Changed', throttle: null }),
    );
    expect(changed.name).toBe('Changed');
    expect(changed.throttle).toBeUndefined();
    await expectProblem(await send(server, 'PATCH', `/api/v1/policies/${policy.id}`, { grants: [] }), 400);
    await expectProblem(await send(server, 'PATCH', '/api/v1/policies/nope', { name: 'x' }), 404);
    const filtered = await json<{ data: Policy[] }>(await server.api('/api/v1/policies?agentGroupId=nope'));
    expect(filtered.data).toEqual([]);
    expect((await send(server, 'DELETE', `/api/v1/policies/${policy.id}`)).status).toBe(204);
    await expectProblem(await send(server, 'DELETE', `/api/v1/policies/${policy.id}`), 404);
  });

  it('shows an API key once, keeps only its prefix and digest, and verifies it', async () => {
    const policy = await createPolicy({
      name: 'Keyed',
      agentGroupId: 'default',
      endpoints: [{ pathPrefix: '/keyed' }],
      grants: [{ type: 'apiKey' }],
    });
    const response = await send(server, 'POST', '/api/v1/api-keys', {
      name: 'Partner A',
      environmentId: 'development',
      policyIds: [policy.id],
      expiresAt: '2999-01-01T00:00:00Z',
    });
    expect(response.status).toBe(201);
    const created = await json<{
      apiKey: { id: string; prefix: string; expired: boolean; expiresAt: string };
      key: string;
    }>(response);
    expect(created.key).toMatch(/^gatehouse_[A-Za-z0-9_-]{43}$/);
    expect(created.apiKey).toMatchObject({
      prefix: created.key.slice(0, 17),
      expired: false,
      expiresAt: '2999-01-01T00:00:00.000Z',
    });

    const list = await (await server.api('/api/v1/api-keys?environmentId=development')).text();
    expect(list).toContain(created.apiKey.id);
    expect(list).not.toContain(created.key);
    expect(await (await server.api(`/api/v1/api-keys/${created.apiKey.id}`)).text()).not.toContain(
      created.key,
    );
    const audit = await (await server.api('/api/v1/audit-log/export', { roles: ['Auditor'] })).text();
    expect(audit).toContain('ApiKeys.Create');
    expect(audit).not.toContain(created.key);

    const store = JSON.parse(await storedConfigText(server.gatehouse.database)) as {
      apiKeys: ApiKeyRecord[];
    };
    expect(JSON.stringify(store)).not.toContain(created.key);
    const record = store.apiKeys.find((key) => key.id === created.apiKey.id)!;
    const digest = await ApiKeyDigest.open(server.gatehouse.keys);
    expect(digest.verifyApiKey(created.key, record.digest)).toBe(true);
    expect(digest.verifyApiKey(`${created.key.slice(0, -1)}x`, record.digest)).toBe(false);
    expect(digest.findApiKey(store.apiKeys, created.key, new Date())?.id).toBe(record.id);
    expect(digest.findApiKey(store.apiKeys, created.key, new Date('3000-01-01T00:00:00Z'))).toBeUndefined();

    // A policy that keys are limited to stays until they are revoked.
    await expectProblem(await send(server, 'DELETE', `/api/v1/policies/${policy.id}`), 409);
    expect((await send(server, 'DELETE', `/api/v1/api-keys/${created.apiKey.id}`)).status).toBe(204);
    await expectProblem(await send(server, 'DELETE', `/api/v1/api-keys/${created.apiKey.id}`), 404);
    expect((await send(server, 'DELETE', `/api/v1/policies/${policy.id}`)).status).toBe(204);
  });

  it('validates API keys: environment, policies, expiry (400)', async () => {
    const publicPolicy = await createPolicy({
      name: 'Public only',
      agentGroupId: 'default',
      endpoints: [{ pathPrefix: '/public-only' }],
      grants: [{ type: 'public' }],
    });
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'k', environmentId: 'nope' }, 'environmentId'],
      [{ name: 'k', environmentId: 'development', policyIds: ['nope'] }, 'policyIds'],
      [{ name: 'k', environmentId: 'development', policyIds: [publicPolicy.id] }, 'policyIds'],
      [{ name: 'k', environmentId: 'development', expiresAt: '2001-01-01T00:00:00Z' }, 'expiresAt'],
      [{ name: 'k', environmentId: 'development', expiresAt: 'tomorrow' }, 'expiresAt'],
      [{ name: '', environmentId: 'development' }, 'name'],
    ];
    for (const [body, field] of cases) {
      const problem = await expectProblem(await send(server, 'POST', '/api/v1/api-keys', body), 400);
      expect(Object.keys(problem.errors!), JSON.stringify(body)).toEqual([field]);
    }
    const staging = await json<{ id: string }>(
      await send(server, 'POST', '/api/v1/environments', { name: 'Keys staging' }),
    );
    const key = await send(server, 'POST', '/api/v1/api-keys', {
      name: 'Staging key',
      environmentId: staging.id,
    });
    expect(key.status).toBe(201);
    const blocked = await expectProblem(
      await send(server, 'DELETE', `/api/v1/environments/${staging.id}`),
      409,
    );
    expect(blocked.detail).toContain("'Staging key'");
  });

  it('keeps API key names unique, saying so at the name field (409)', async () => {
    const first = await send(server, 'POST', '/api/v1/api-keys', {
      name: 'Mobile app',
      environmentId: 'development',
    });
    expect(first.status).toBe(201);
    const { apiKey } = await json<{ apiKey: { id: string } }>(first);
    // Any environment: names tell keys apart in lists, monitoring and the audit trail.
    const again = await expectProblem(
      await send(server, 'POST', '/api/v1/api-keys', { name: 'mobile APP', environmentId: 'development' }),
      409,
    );
    expect(again).toMatchObject({
      code: 'GH_ERR_ALREADY_EXISTS',
      title: 'That name is already taken',
      conflictingId: apiKey.id,
      errors: { name: ["An API key named 'Mobile app' already exists. Choose another name."] },
    });
    const audit = await (
      await server.api('/api/v1/audit-log?actionName=ApiKeys.Create&PageSize=1', { roles: ['Auditor'] })
    ).json();
    expect(audit).toMatchObject({ items: [{ statusCode: 409 }] });
    expect((await send(server, 'DELETE', `/api/v1/api-keys/${apiKey.id}`)).status).toBe(204);
    expect(
      (await send(server, 'POST', '/api/v1/api-keys', { name: 'Mobile app', environmentId: 'development' }))
        .status,
    ).toBe(201);
  });
});
