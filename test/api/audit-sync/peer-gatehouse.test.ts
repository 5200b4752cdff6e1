import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, NewAuditEntry } from '../../../src-server/core/audit/audit-entry.js';
import type { AuditSource } from '../../../src-server/core/contracts/audit-source-schemas.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

interface Page {
  items: AuditEntry[];
  totalCount: number;
}

function entry(i: number, at: number): NewAuditEntry {
  return {
    actionName: i % 2 ? 'Process.Deploy' : 'Role.Modify',
    userName: `user${i % 5}`,
    timestamp: new Date(at).toISOString(),
    parameters: { i },
    resources: [],
    category: 'general',
  };
}

/**
 * Another Gatehouse instance is the tenant: its own `GET /api/v1/audit-log`, reached with a token its identity
 * provider issues to an application registration by the OAuth 2 client-credentials grant.
 */
describe('audit sync from another Gatehouse instance', { timeout: 120_000 }, () => {
  let peer: TestServer;
  let local: TestServer;
  let clientId: string;
  let clientSecret: string;

  beforeAll(async () => {
    peer = await startTestServer({ settings: { 'Flags:EnableServiceApiAuditLogRoute': true } });
    local = await startTestServer({ settings: { 'Flags:EnableServiceApiAuditLogRoute': true } });
    const created = await peer.api('/api/v1/app-registrations', {
      method: 'POST',
      body: JSON.stringify({ name: 'support desk', roles: ['Auditor'] }),
    });
    expect(created.status).toBe(201);
    const body = (await created.json()) as { registration: { clientId: string }; clientSecret: string };
    clientId = body.registration.clientId;
    clientSecret = body.clientSecret;
    const base = Date.now() - 3 * 86_400_000;
    await peer.gatehouse.audit.store.importEntries(
      Array.from({ length: 430 }, (_, i) => entry(i, base + i * 60_000)),
    );
  });
  afterAll(async () => {
    await local.close();
    await peer.close();
  });

  async function waitForSync(name: string, after: string): Promise<AuditSource> {
    for (;;) {
      const response = await local.api(`/api/v1/audit-sources/${name}`, { roles: ['Administrator'] });
      const source = (await response.json()) as AuditSource;
      if (source.lastSync && source.lastSync.startedAt >= after && source.lastSync.status !== 'running')
        return source;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async function peerTrail(): Promise<Page> {
    const response = await peer.api('/api/v1/audit-log?PageSize=1', { roles: ['Auditor'] });
    return (await response.json()) as Page;
  }

  it('pulls the whole trail, then only what is new, keeping the peer’s content', async () => {
    const created = await local.api('/api/v1/audit-sources', {
      method: 'POST',
      roles: ['Administrator'],
      body: JSON.stringify({
        name: 'peer',
        baseUrl: peer.url,
        auth: {
          kind: 'client-credentials',
          tokenEndpoint: `${peer.url}/oauth2/token`,
          clientId,
          clientSecret,
        },
      }),
    });
    expect(created.status, await created.clone().text()).toBe(201);

    let started = new Date().toISOString();
    const sync = await local.api('/api/v1/audit-sources/peer/sync', {
      method: 'POST',
      roles: ['Administrator'],
    });
    expect(sync.status).toBe(202);
    const first = await waitForSync('peer', started);
    // The peer's own entries (its start, the registration) come too; everything the peer had at the start.
    const total = (await peerTrail()).totalCount;
    expect(first.lastSync).toMatchObject({ status: 'completed', pages: Math.ceil(total / 200) });
    expect(first.lastSync!.added).toBeGreaterThanOrEqual(430);

    const local1 = await local.api('/api/v1/audit-log?tenant=peer&PageSize=200', { roles: ['Auditor'] });
    const synced = (await local1.json()) as Page;
    expect(synced.totalCount).toBe(first.lastSync!.added);
    const peerPage = (await (
      await peer.api('/api/v1/audit-log?PageSize=200', { roles: ['Auditor'] })
    ).json()) as Page;
    // Same entries, newest first, each keeping the peer's id as sourceId.
    const strip = ({ id, sourceId: _sourceId, tenant: _tenant, ...rest }: AuditEntry) => ({
      ...rest,
      sourceId: id,
    });
    expect(synced.items.slice(0, 50).map(({ id: _id, tenant: _t, ...rest }) => rest)).toEqual(
      peerPage.items
        .filter((item) => item.timestamp <= first.lastSync!.startedAt)
        .slice(0, 50)
        .map(strip),
    );

    // The peer records more (its own audited actions); the next sync adds just those.
    await peer.gatehouse.audit.store.importEntries([
      entry(1000, Date.now() - 1000),
      entry(1001, Date.now() - 500),
    ]);
    started = new Date().toISOString();
    await local.api('/api/v1/audit-sources/peer/sync', { method: 'POST', roles: ['Administrator'] });
    const second = await waitForSync('peer', started);
    expect(second.lastSync).toMatchObject({ status: 'completed', pages: 1, resumed: false });
    expect(second.lastSync!.added).toBeGreaterThanOrEqual(2);
    expect(second.lastSync!.duplicates).toBeGreaterThan(0);
    const after = (await (
      await local.api('/api/v1/audit-log?tenant=peer&PageSize=1', { roles: ['Auditor'] })
    ).json()) as Page;
    expect(after.totalCount).toBe(first.lastSync!.added + second.lastSync!.added);
  });

  it('reports a refused client without ever showing its secret', async () => {
    await local.api('/api/v1/audit-sources', {
      method: 'POST',
      roles: ['Administrator'],
      body: JSON.stringify({
        name: 'wrong-secret',
        tenant: 'peer2',
        baseUrl: peer.url,
        auth: {
          kind: 'client-credentials',
          tokenEndpoint: `${peer.url}/oauth2/token`,
          clientId,
          clientSecret: 'not-it-0123456789',
        },
      }),
    });
    const started = new Date().toISOString();
    await local.api('/api/v1/audit-sources/wrong-secret/sync', { method: 'POST', roles: ['Administrator'] });
    const failed = await waitForSync('wrong-secret', started);
    expect(failed.lastSync).toMatchObject({ status: 'failed', pages: 0 });
    expect(failed.lastSync!.error).toMatch(/token endpoint refused the client \(401 invalid_client/);
    expect(JSON.stringify(failed)).not.toContain('not-it-0123456789');
  });
});
