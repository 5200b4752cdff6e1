import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../src-server/core/audit/audit-entry.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';
import { expectProblem, importApi, json, openApiDocument, send } from './helpers.js';

interface Environment {
  id: string;
  name: string;
  description?: string;
}
interface AgentGroup {
  id: string;
  name: string;
  environmentId: string;
  platform: string;
  host: string;
  port: number;
  listenerUrl: string | null;
}

describe('environments and agent groups', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ settings: { 'Flags:EnableServiceApiAuditLogRoute': true } });
  });
  afterAll(() => server.close());

  async function createEnvironment(name: string): Promise<Environment> {
    const response = await send(server, 'POST', '/api/v1/environments', { name });
    expect(response.status).toBe(201);
    return json<Environment>(response);
  }

  async function createGroup(body: Record<string, unknown>): Promise<AgentGroup> {
    const response = await send(server, 'POST', '/api/v1/agent-groups', body);
    const created = await json<AgentGroup>(response);
    if (response.status !== 201) expect.fail(`${response.status} ${JSON.stringify(created)}`);
    return created;
  }

  it('lists the seeded Development environment and Default group', async () => {
    const environments = await json<{ data: Environment[]; paging: { totalCount: number } }>(
      await server.api('/api/v1/environments?pagesize=10', { roles: ['Auditor'] }),
    );
    expect(environments.data.map((environment) => environment.id)).toContain('development');
    expect(environments.paging).toMatchObject({ currentPage: 1, pageSize: 10 });
    const groups = await json<{ data: AgentGroup[] }>(await server.api('/api/v1/agent-groups'));
    expect(groups.data.find((group) => group.id === 'default')).toMatchObject({
      environmentId: 'development',
      platform: 'cross-platform',
      host: '127.0.0.1',
    });
  });

  it('names the address each running listener answers at, also when its port was picked at start', async () => {
    const groups = await json<{ data: AgentGroup[] }>(await server.api('/api/v1/agent-groups'));
    expect(groups.data.find((group) => group.id === 'default')?.listenerUrl).toBe(server.gatewayUrl);

    const edge = await createGroup({ name: 'Listening edge', environmentId: 'development' });
    expect(edge.port).toBe(0);
    expect(edge.listenerUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(edge.listenerUrl).not.toBe(server.gatewayUrl);
    // It is the gateway that answers there: an unknown path is its own 404 problem.
    const answer = await fetch(`${edge.listenerUrl!}/no-such-api`);
    expect(answer.status).toBe(404);
    expect(answer.headers.get('content-type')).toContain('application/problem+json');
    expect((await json<AgentGroup>(await server.api(`/api/v1/agent-groups/${edge.id}`))).listenerUrl).toBe(
      edge.listenerUrl,
    );

    // The port a listener runs on now is taken too, though its record says 0 (or the settings placed it).
    for (const running of [server.gatewayUrl, edge.listenerUrl!]) {
      const clash = await expectProblem(
        await send(server, 'POST', '/api/v1/agent-groups', {
          name: 'On a running port',
          environmentId: 'development',
          port: Number(new URL(running).port),
        }),
        409,
      );
      expect(clash.errors!.port![0]).toContain(`already listens on 127.0.0.1:${new URL(running).port}`);
    }

    const legacy = await createGroup({
      name: 'Old agents',
      environmentId: 'development',
      platform: 'legacy',
    });
    expect(legacy.listenerUrl).toBeNull();
    expect((await send(server, 'DELETE', `/api/v1/agent-groups/${edge.id}`)).status).toBe(204);
    expect((await send(server, 'DELETE', `/api/v1/agent-groups/${legacy.id}`)).status).toBe(204);
  });

  it('creates, renames and deletes an environment, refusing duplicate names and unknown ids', async () => {
    const staging = await createEnvironment('Staging');
    expect((await server.api(`/api/v1/environments/${staging.id}`)).status).toBe(200);
    const duplicate = await expectProblem(
      await send(server, 'POST', '/api/v1/environments', { name: 'staging' }),
      409,
    );
    expect(duplicate.detail).toContain("'Staging'");
    expect(duplicate.errors).toEqual({
      name: ["An environment named 'Staging' already exists. Choose another name."],
    });
    await expectProblem(await send(server, 'POST', '/api/v1/environments', { name: '' }), 400);
    await expectProblem(await send(server, 'POST', '/api/v1/environments', { name: 'x', extra: 1 }), 400);

    const renamed = await send(server, 'PATCH', `/api/v1/environments/${staging.id}`, {
      name: 'Staging 2',
      description: 'Pre-production',
    });
    expect(await json(renamed)).toMatchObject({ name: 'Staging 2', description: 'Pre-production' });
    const cleared = await json<Environment>(
      await send(server, 'PATCH', `/api/v1/environments/${staging.id}`, { description: null }),
    );
    expect(cleared.description).toBeUndefined();

    expect((await send(server, 'DELETE', `/api/v1/environments/${staging.id}`)).status).toBe(204);
    await expectProblem(await send(server, 'DELETE', `/api/v1/environments/${staging.id}`), 404);
    await expectProblem(await send(server, 'PATCH', '/api/v1/environments/nope', { name: 'x' }), 404);
  });

  it('refuses to delete an environment that agent groups use (409)', async () => {
    const problem = await expectProblem(
      await send(server, 'DELETE', '/api/v1/environments/development'),
      409,
    );
    expect(problem.detail).toContain("'Default'");
  });

  it('creates agent groups with defaults and validates host, port and environment', async () => {
    const production = await createEnvironment('Production');
    const group = await createGroup({ name: 'Edge', environmentId: production.id });
    expect(group).toMatchObject({ platform: 'cross-platform', host: '127.0.0.1', port: 0 });
    const v6 = await createGroup({ name: 'V6', environmentId: production.id, host: '[::1]', port: 9101 });
    expect(v6.host).toBe('::1');

    const badHost = await expectProblem(
      await send(server, 'POST', '/api/v1/agent-groups', {
        name: 'A',
        environmentId: 'development',
        host: 'example.com',
      }),
      400,
    );
    expect(Object.keys(badHost.errors!)).toEqual(['host']);
    const badPort = await expectProblem(
      await send(server, 'POST', '/api/v1/agent-groups', {
        name: 'A',
        environmentId: 'development',
        port: 70000,
      }),
      400,
    );
    expect(Object.keys(badPort.errors!)).toEqual(['port']);
    const badPlatform = await expectProblem(
      await send(server, 'POST', '/api/v1/agent-groups', {
        name: 'A',
        environmentId: 'development',
        platform: 'windows',
      }),
      400,
    );
    expect(Object.keys(badPlatform.errors!)).toEqual(['platform']);
    const badEnvironment = await expectProblem(
      await send(server, 'POST', '/api/v1/agent-groups', { name: 'A', environmentId: 'nope' }),
      400,
    );
    expect(badEnvironment.errors).toEqual({ environmentId: ['No environment has id nope.'] });
    await expectProblem(
      await send(server, 'POST', '/api/v1/agent-groups', { name: 'edge', environmentId: 'development' }),
      409,
    );

    const filtered = await json<{ data: AgentGroup[] }>(
      await server.api(`/api/v1/agent-groups?environmentId=${production.id}`),
    );
    expect(filtered.data.map((candidate) => candidate.name)).toEqual(['Edge', 'V6']);
  });

  it('refuses two cross-platform groups on one address, but not legacy groups or free ports (409)', async () => {
    const first = await createGroup({ name: 'Port 9201', environmentId: 'development', port: 9201 });
    const clash = await expectProblem(
      await send(server, 'POST', '/api/v1/agent-groups', {
        name: 'Clash',
        environmentId: 'development',
        host: 'localhost',
        port: 9201,
      }),
      409,
    );
    expect(clash.detail).toContain("'Port 9201'");
    expect(clash.title).toBe('That port is already taken');
    expect(Object.keys(clash.errors!)).toEqual(['port']);
    await expectProblem(
      await send(server, 'POST', '/api/v1/agent-groups', {
        name: 'Everywhere',
        environmentId: 'development',
        host: '0.0.0.0',
        port: 9201,
      }),
      409,
    );
    await createGroup({
      name: 'Legacy on 9201',
      environmentId: 'development',
      platform: 'legacy',
      port: 9201,
    });
    await createGroup({ name: 'Free port', environmentId: 'development', port: 0 });
    await createGroup({ name: 'Free port too', environmentId: 'development', port: 0 });
    const other = await createGroup({ name: 'Port 9202', environmentId: 'development', port: 9202 });
    await expectProblem(await send(server, 'PATCH', `/api/v1/agent-groups/${other.id}`, { port: 9201 }), 409);
    const moved = await send(server, 'PATCH', `/api/v1/agent-groups/${first.id}`, {
      port: 9203,
      name: 'Port 9203',
    });
    expect(await json(moved)).toMatchObject({ port: 9203, name: 'Port 9203' });
  });

  it('keeps the default group, and groups that APIs or policies use (409)', async () => {
    const problem = await expectProblem(await send(server, 'DELETE', '/api/v1/agent-groups/default'), 409);
    expect(problem.detail).toContain('default agent group');

    const used = await createGroup({ name: 'Used by an API', environmentId: 'development' });
    const api = await importApi(server, openApiDocument({ serverUrl: '/used' }), {
      query: `agentGroupId=${used.id}`,
    });
    const byApi = await expectProblem(await send(server, 'DELETE', `/api/v1/agent-groups/${used.id}`), 409);
    expect(byApi.detail).toContain("API 'Test API'");
    expect((await send(server, 'DELETE', `/api/v1/apis/${api.id}`)).status).toBe(204);

    const policy = await send(server, 'POST', '/api/v1/policies', {
      name: 'Open',
      agentGroupId: used.id,
      endpoints: [{ pathPrefix: '/used' }],
      grants: [{ type: 'public' }],
    });
    expect(policy.status).toBe(201);
    const byPolicy = await expectProblem(
      await send(server, 'DELETE', `/api/v1/agent-groups/${used.id}`),
      409,
    );
    expect(byPolicy.detail).toContain("policy 'Open'");
    expect(
      (await send(server, 'DELETE', `/api/v1/policies/${(await json<{ id: string }>(policy)).id}`)).status,
    ).toBe(204);
    expect((await send(server, 'DELETE', `/api/v1/agent-groups/${used.id}`)).status).toBe(204);
    await expectProblem(await server.api(`/api/v1/agent-groups/${used.id}`), 404);
  });

  it('audits changes with the resource and the agent group, and refuses readers', async () => {
    const group = await createGroup({ name: 'Audited', environmentId: 'development' });
    await send(server, 'PATCH', `/api/v1/agent-groups/${group.id}`, { port: 9301 });
    const log = await json<{ items: AuditEntry[] }>(
      await server.api('/api/v1/audit-log?actionName=AgentGroups.Modify', { roles: ['Auditor'] }),
    );
    expect(log.items[0]).toMatchObject({
      statusCode: 200,
      resources: [{ type: 'AgentGroup', id: group.id, name: 'Audited' }],
      agentGroup: { id: group.id, name: 'Audited' },
      parameters: { id: group.id, port: 9301 },
    });
    const denied = await server.api('/api/v1/environments', {
      method: 'POST',
      roles: ['Auditor'],
      body: JSON.stringify({ name: 'Nope' }),
    });
    await expectProblem(denied, 403);
  });
});
