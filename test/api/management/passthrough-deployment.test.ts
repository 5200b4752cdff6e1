import { storedConfigText } from '../../helpers/stored-config.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../src-server/core/audit/audit-entry.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';
import {
  createBackendVariable,
  entry,
  expectProblem,
  importApi,
  json,
  openApiDocument,
  send,
  type ApiDto,
  type Passthrough,
} from './helpers.js';

describe('Passthrough deployment, policies and credential headers', () => {
  let server: TestServer;
  let api: ApiDto;
  let backendId: string;

  beforeAll(async () => {
    server = await startTestServer({ settings: { 'Flags:EnableServiceApiAuditLogRoute': true } });
    backendId = await createBackendVariable(server);
    api = await importApi(
      server,
      openApiDocument({ title: 'Orders', serverUrl: '/orders-api', paths: ['/orders', '/orders/{id}'] }),
    );
  });
  afterAll(() => server.close());

  const path = (apiId = api.id) => `/api/v1/apis/${apiId}/passthrough`;

  it('refuses to deploy to a legacy agent group or where a referenced value is missing (422)', async () => {
    const legacy = await json<{ id: string }>(
      await send(server, 'POST', '/api/v1/agent-groups', {
        name: 'Old agents',
        environmentId: 'development',
        platform: 'legacy',
      }),
    );
    const onLegacy = await importApi(
      server,
      openApiDocument({ title: 'On legacy', serverUrl: '/on-legacy' }),
      {
        query: `agentGroupId=${legacy.id}`,
      },
    );
    const refused = await expectProblem(
      await send(server, 'POST', path(onLegacy.id), { allOperations: entry() }),
      422,
      'GH_ERR_LEGACY_AGENT_GROUP',
    );
    expect(refused.detail).toContain('Passthrough is supported only on cross-platform agents');
    expect(refused.legacyAgentGroups).toEqual([{ id: legacy.id, name: 'Old agents' }]);

    const missing = await expectProblem(
      await send(server, 'POST', path(), {
        allOperations: entry('{{#env.backend.url}}/{{#env.backend.region}}'),
      }),
      422,
      'GH_ERR_MISSING_VARIABLE_VALUES',
    );
    expect(missing.detail).toContain(
      "#env.backend.region has no value in environment 'Development' (agent group 'Default')",
    );
    expect(missing.missingValues).toEqual([
      {
        reference: '#env.backend.region',
        environmentId: 'development',
        environmentName: 'Development',
        agentGroupId: 'default',
        agentGroupName: 'Default',
      },
    ]);
  });

  it('keeps passthroughs deployable when their agent groups change (422)', async () => {
    const staging = await json<{ id: string }>(
      await send(server, 'POST', '/api/v1/environments', { name: 'Staging' }),
    );
    const group = await json<{ id: string }>(
      await send(server, 'POST', '/api/v1/agent-groups', { name: 'Movable', environmentId: 'development' }),
    );
    const moved = await importApi(server, openApiDocument({ title: 'Moved', serverUrl: '/moved' }), {
      query: `agentGroupId=${group.id}`,
    });
    expect(
      (await send(server, 'POST', path(moved.id), { allOperations: entry('{{#env.backend.url}}') })).status,
    ).toBe(201);
    const toStaging = await expectProblem(
      await send(server, 'PATCH', `/api/v1/agent-groups/${group.id}`, { environmentId: staging.id }),
      422,
    );
    expect(toStaging.detail).toContain("environment 'Staging'");
    const toLegacy = await expectProblem(
      await send(server, 'PATCH', `/api/v1/agent-groups/${group.id}`, { platform: 'legacy' }),
      422,
    );
    expect(toLegacy.detail).toContain('cross-platform agents');
    await send(server, 'PUT', `/api/v1/environment-variables/${backendId}/values/${staging.id}`, {
      members: { url: 'https://staging.example.com' },
    });
    expect(
      (await send(server, 'PATCH', `/api/v1/agent-groups/${group.id}`, { environmentId: staging.id })).status,
    ).toBe(200);
  });

  it('creates a policy in the same request, audited once naming both', async () => {
    const withPolicy = await importApi(server, openApiDocument({ title: 'Guarded', serverUrl: '/guarded' }));
    const response = await send(server, 'POST', path(withPolicy.id), {
      allOperations: entry(),
      policy: { grants: [{ type: 'apiKey' }], throttle: { limit: 100, per: 'minute' } },
    });
    const created = await json<{ passthrough: Passthrough; policy: Record<string, unknown> }>(response);
    expect(response.status).toBe(201);
    expect(created.policy).toMatchObject({
      name: 'Guarded passthrough',
      agentGroupId: 'default',
      endpoints: [{ method: 'ALL', pathPrefix: '/guarded' }],
      grants: [{ type: 'apiKey', headerName: 'X-API-Key' }],
      throttle: { limit: 100, per: 'minute' },
    });
    const policies = await json<{ data: { id: string }[] }>(
      await server.api('/api/v1/policies?agentGroupId=default'),
    );
    expect(policies.data.map((policy) => policy.id)).toContain(created.policy.id);
    const log = await json<{ items: AuditEntry[] }>(
      await server.api('/api/v1/audit-log?actionName=Passthroughs.Create&PageSize=200', {
        roles: ['Auditor'],
      }),
    );
    const entries = log.items.filter((item) => item.parameters.apiId === withPolicy.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      statusCode: 201,
      resources: [
        { type: 'Passthrough', id: created.passthrough.id },
        { type: 'Policy', id: created.policy.id, name: 'Guarded passthrough' },
        { type: 'Api', id: withPolicy.id },
      ],
      agentGroup: { id: 'default' },
    });
    expect(
      (await server.api('/api/v1/audit-log?actionName=Policies.Create', { roles: ['Auditor'] })).status,
    ).toBe(200);

    // A refused policy refuses the passthrough too: nothing is half-created.
    const other = await importApi(server, openApiDocument({ title: 'Half', serverUrl: '/half' }));
    const refused = await expectProblem(
      await send(server, 'POST', path(other.id), { allOperations: entry(), policy: { grants: [] } }),
      400,
    );
    expect(Object.keys(refused.errors!)).toEqual(['policy.grants']);
    const clash = await expectProblem(
      await send(server, 'POST', path(other.id), {
        allOperations: entry(),
        policy: { name: 'Guarded passthrough', grants: [{ type: 'public' }] },
      }),
      409,
    );
    expect(clash.detail).toContain('Guarded passthrough');
    await expectProblem(await server.api(path(other.id)), 404);
  });

  it('masks literal credential header values in responses and keeps them when sent back masked', async () => {
    const secretApi = await importApi(
      server,
      openApiDocument({ title: 'Secret headers', serverUrl: '/secret-headers' }),
    );
    const literal = 'sk_live_literal_Q9w8';
    const created = await json<{ passthrough: Passthrough }>(
      await send(server, 'POST', path(secretApi.id), {
        allOperations: entry('https://x.example.com', {
          headers: [
            { action: 'Add', name: 'X-API-Key', value: literal },
            { action: 'Overwrite', name: 'Authorization', value: 'Bearer {{#env.backend.token}}' },
            { action: 'Add', name: 'X-Trace', value: 'plain' },
          ],
        }),
      }),
    );
    const headers = created.passthrough.allOperations!.headers;
    expect(headers.map((header) => header.value)).toEqual([
      '********',
      'Bearer {{#env.backend.token}}',
      'plain',
    ]);
    const read = await json<Passthrough>(await server.api(path(secretApi.id)));
    const put = await send(server, 'PUT', path(secretApi.id), {
      allOperations: read.allOperations,
      operations: {},
    });
    expect(put.status).toBe(200);
    const store = await storedConfigText(server.gatehouse.database);
    // Kept, and sealed at rest: the stored configuration holds neither the value nor the mask.
    expect(store).not.toContain(literal);
    expect(store).not.toContain('"value":"********"');
    expect(store).toContain('"sealedValue":"v1:');
    const unknownMask = await expectProblem(
      await send(server, 'PUT', path(secretApi.id), {
        allOperations: entry('https://x.example.com', {
          headers: [{ action: 'Add', name: 'X-Other-Token', value: '********' }],
        }),
      }),
      400,
    );
    expect(Object.keys(unknownMask.errors!)).toEqual(['allOperations.headers[0].value']);
    const everything = await (await server.api('/api/v1/audit-log/export', { roles: ['Auditor'] })).text();
    expect(everything).not.toContain(literal);
    expect(everything).not.toContain('tok-123');
  });
});
