import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src-server/core/audit/audit-entry.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

describe('audit recording of management requests', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ settings: { 'Flags:EnableServiceApiAuditLogRoute': true } });
  });
  afterAll(() => server.close());

  async function latest(actionName: string): Promise<AuditEntry[]> {
    const response = await server.api(`/api/v1/audit-log?actionName=${actionName}&PageSize=200`, {
      roles: ['Auditor'],
    });
    return ((await response.json()) as { items: AuditEntry[] }).items;
  }

  it('records a successful change with the user, outcome, resources and parameters, secrets never included', async () => {
    const response = await server.api('/api/v1/app-registrations', {
      method: 'POST',
      userName: 'alice@example.com',
      body: JSON.stringify({ name: 'CI pipeline', roles: ['Auditor'] }),
    });
    expect(response.status).toBe(201);
    const created = (await response.json()) as {
      registration: { id: string; clientId: string };
      clientSecret: string;
    };
    // Durable before the response: the entry is already readable.
    const [entry] = await latest('AppRegistrations.Create');
    expect(entry).toMatchObject({
      actionName: 'AppRegistrations.Create',
      userName: 'alice@example.com',
      statusCode: 201,
      category: 'configuration',
      resources: [{ type: 'AppRegistration', id: created.registration.id, name: 'CI pipeline' }],
      parameters: {
        name: 'CI pipeline',
        roles: ['Auditor'],
        id: created.registration.id,
        clientId: created.registration.clientId,
      },
    });
    const everything = await (await server.api('/api/v1/audit-log/export', { roles: ['Auditor'] })).text();
    expect(everything).not.toContain(created.clientSecret);
  });

  it('records failed, denied and unauthenticated attempts with their status', async () => {
    const invalid = await server.api('/api/v1/app-registrations', {
      method: 'POST',
      userName: 'bob',
      body: JSON.stringify({ name: '', roles: ['Nope'] }),
    });
    expect(invalid.status).toBe(400);
    const denied = await server.api('/api/v1/app-registrations', {
      method: 'POST',
      roles: ['Auditor'],
      userName: 'carol',
      body: JSON.stringify({ name: 'x', roles: ['Auditor'] }),
    });
    expect(denied.status).toBe(403);
    const anonymous = await server.api('/api/v1/app-registrations', {
      method: 'POST',
      token: null,
      body: '{}',
    });
    expect(anonymous.status).toBe(401);
    const entries = await latest('AppRegistrations.Create');
    expect(entries.slice(0, 3).map((e) => [e.userName, e.statusCode])).toEqual([
      ['anonymous', 401],
      ['carol', 403],
      ['bob', 400],
    ]);
  });

  it('names an application registration as the user of its client-credentials calls', async () => {
    const created = (await (
      await server.api('/api/v1/app-registrations', {
        method: 'POST',
        body: JSON.stringify({ name: 'Nightly sync', roles: ['Operator'] }),
      })
    ).json()) as { registration: { id: string; clientId: string }; clientSecret: string };
    const tokenResponse = await fetch(`${server.url}/oauth2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: created.registration.clientId,
        client_secret: created.clientSecret,
      }),
    });
    expect(tokenResponse.status).toBe(200);
    const { access_token: accessToken } = (await tokenResponse.json()) as { access_token: string };
    const rotate = await server.api(`/api/v1/app-registrations/${created.registration.id}/secret`, {
      method: 'POST',
      token: accessToken,
    });
    expect(rotate.status).toBe(200);
    const [entry] = await latest('AppRegistrations.RotateSecret');
    expect(entry).toMatchObject({ userName: 'Nightly sync', statusCode: 200 });
    expect(JSON.stringify(entry)).not.toContain(
      ((await rotate.json()) as { clientSecret: string }).clientSecret,
    );
  });

  it('does not audit reads', async () => {
    const before = (await (await server.api('/api/v1/audit-log', { roles: ['Auditor'] })).json()) as {
      totalCount: number;
    };
    await server.api('/api/v1/app-registrations');
    await server.api('/api/v1/tenant/settings');
    const after = (await (await server.api('/api/v1/audit-log', { roles: ['Auditor'] })).json()) as {
      totalCount: number;
    };
    expect(after.totalCount).toBe(before.totalCount);
  });

  it('records agent events in the agent category', async () => {
    const [started] = await latest('Agent.Started');
    expect(started).toMatchObject({
      userName: 'system',
      category: 'agent',
      agentGroup: { id: 'default', name: 'Default' },
      resources: [{ type: 'AgentGroup', id: 'default', name: 'Default' }],
    });
  });
});
