import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, NewAuditEntry } from '../../src-server/core/audit/audit-entry.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

interface Page {
  items: AuditEntry[];
  totalCount: number;
  continuationToken?: string;
}

const BASE = Date.parse('2026-03-01T00:00:00.000Z');

function imported(minutes: number, resources: NewAuditEntry['resources']): NewAuditEntry {
  return {
    actionName: 'Process.Deploy',
    userName: 'alice',
    timestamp: new Date(BASE + minutes * 60_000).toISOString(),
    parameters: { minutes },
    resources,
    category: 'general',
  };
}

describe('the resource filter of the audit log over HTTP', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ settings: { 'Flags:EnableServiceApiAuditLogRoute': true } });
  });
  afterAll(() => server.close());

  async function list(query: string): Promise<Page> {
    const response = await server.api(`/api/v1/audit-log?${query}`, { roles: ['Auditor'] });
    expect(response.status, await response.clone().text()).toBe(200);
    return (await response.json()) as Page;
  }

  async function createEnvironment(name: string): Promise<string> {
    const response = await server.api('/api/v1/environments', {
      method: 'POST',
      body: JSON.stringify({ name }),
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as { id: string }).id;
  }

  it('finds everything recorded about one resource, and nothing else', async () => {
    const staging = await createEnvironment('staging');
    const production = await createEnvironment('production');
    const renamed = await server.api(`/api/v1/environments/${staging}`, {
      method: 'PATCH',
      body: JSON.stringify({ description: 'Pre-release' }),
    });
    expect(renamed.status).toBe(200);

    const page = await list(`resource=${encodeURIComponent(`Environment:${staging}`)}`);
    expect(page.totalCount).toBe(2);
    expect(page.items.map((item) => item.actionName)).toEqual(['Environments.Modify', 'Environments.Create']);
    for (const item of page.items)
      expect(item.resources).toContainEqual(expect.objectContaining({ id: staging }));
    expect((await list(`RESOURCE=Environment:${production}`)).items.map((item) => item.actionName)).toEqual([
      'Environments.Create',
    ]);
    // Type and id match exactly.
    expect((await list(`resource=environment:${staging}`)).totalCount).toBe(0);
    expect((await list(`resource=Environment:${staging.toUpperCase()}x`)).totalCount).toBe(0);
  });

  it("finds entries of every category, imported tenants' included, and combines with the other filters", async () => {
    const api = { type: 'Api', id: 'orders:v1', name: 'Orders' };
    await server.gatehouse.audit.store.importEntries(
      [
        imported(1, [api]),
        imported(2, [{ type: 'Passthrough', id: 'p-1' }, api]),
        imported(3, [{ type: 'Api', id: 'billing' }]),
        { ...imported(4, [api]), category: 'agent', userName: 'system' },
      ],
      undefined,
      { tenant: 'acme' },
    );
    // The id holds a colon: the type ends at the first one.
    const page = await list('tenant=acme&resource=Api:orders:v1');
    expect(page.items.map((item) => item.parameters.minutes)).toEqual([4, 2, 1]);
    expect((await list('tenant=acme&resource=Api:orders:v1&userName=alice')).totalCount).toBe(2);
    expect((await list('tenant=acme&resource=Passthrough:p-1')).totalCount).toBe(1);
    expect((await list('resource=Api:orders:v1')).totalCount).toBe(0);

    // Paging by token over a resource's entries.
    const first = await list('tenant=acme&resource=Api:orders:v1&PageSize=2');
    const second = await list(
      `tenant=acme&resource=Api:orders:v1&continuationToken=${encodeURIComponent(first.continuationToken!)}`,
    );
    expect(second.items.map((item) => item.parameters.minutes)).toEqual([1]);

    const exported = await server.api('/api/v1/audit-log/export?tenant=acme&resource=Api:orders:v1', {
      roles: ['Auditor'],
    });
    const lines = (await exported.text()).trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as AuditEntry).parameters.minutes)).toEqual([4, 2, 1]);
  });

  it('refuses a resource that is not {type}:{id}', async () => {
    for (const value of ['Api', 'Api:', ':x', 'An%20Api:x', 'x'.repeat(601)]) {
      const response = await server.api(`/api/v1/audit-log?resource=${value}`, { roles: ['Auditor'] });
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      const body = (await response.json()) as { errors: Record<string, string[]> };
      expect(Object.keys(body.errors)).toEqual(['resource']);
    }
  });
});
