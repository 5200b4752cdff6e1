import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, NewAuditEntry } from '../../src-server/core/audit/audit-entry.js';
import type { AuditEntryChanges } from '../../src-server/core/contracts/audit-changes-schemas.js';
import { parseAuditFile } from '../../src-renderer/audit-file/audit-file-parser.js';
import { fileEntryChanges } from '../../src-renderer/audit-file/file-entry-changes.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const BASE = Date.parse('2026-03-01T00:00:00.000Z');
const api = { type: 'Api', id: 'orders', name: 'Orders' };

function imported(minutes: number, parameters: Record<string, unknown>, resources = [api]): NewAuditEntry {
  return {
    actionName: 'Passthroughs.Modify',
    userName: 'alice',
    timestamp: new Date(BASE + minutes * 60_000).toISOString(),
    parameters,
    resources,
    category: 'configuration',
  };
}

describe('GET /api/v1/audit-log/entries/{id}/changes over HTTP', () => {
  let server: TestServer;
  let ids: Record<number, number>;

  beforeAll(async () => {
    server = await startTestServer({ settings: { 'Flags:EnableServiceApiAuditLogRoute': true } });
    await server.gatehouse.audit.store.importEntries(
      [
        imported(1, { target: { section1: 'https://a', section2: 'v1' }, cors: false }),
        imported(2, { name: 'unrelated' }, [{ type: 'Api', id: 'billing', name: 'Billing' }]),
        imported(3, { target: { section1: 'https://b', section2: 'v1' }, headers: ['x'], 'a/b': 1 }),
        imported(4, { nothing: true }, []),
        // Two entries of one resource in the same millisecond: the id orders them.
        imported(5, { target: { section1: 'https://c' } }),
        imported(5, { target: { section1: 'https://d' }, cors: true }),
      ],
      undefined,
      { tenant: 'acme' },
    );
    const response = await server.api('/api/v1/audit-log?tenant=acme', { roles: ['Auditor'] });
    const { items } = (await response.json()) as { items: AuditEntry[] };
    ids = Object.fromEntries(items.map((item) => [(Date.parse(item.timestamp) - BASE) / 60_000, item.id]));
  });
  afterAll(() => server.close());

  async function changes(id: number, tenant = 'acme'): Promise<AuditEntryChanges> {
    const response = await server.api(`/api/v1/audit-log/entries/${id}/changes?tenant=${tenant}`, {
      roles: ['Auditor'],
    });
    expect(response.status, await response.clone().text()).toBe(200);
    return (await response.json()) as AuditEntryChanges;
  }

  it("diffs an entry's parameters against the previous entry of its resource, member by member", async () => {
    const third = await changes(ids[3]!);
    expect(third.resource).toEqual(api);
    expect(third.previous).toMatchObject({
      id: ids[1],
      actionName: 'Passthroughs.Modify',
      userName: 'alice',
    });
    expect(third.changes).toEqual([
      { path: '/a~1b', kind: 'added', after: 1 },
      { path: '/cors', kind: 'removed', before: false },
      { path: '/headers', kind: 'added', after: ['x'] },
      { path: '/target/section1', kind: 'changed', before: 'https://a', after: 'https://b' },
    ]);
  });

  it('shows every parameter as added for the first entry of a resource, or an entry naming none', async () => {
    const first = await changes(ids[1]!);
    expect(first).not.toHaveProperty('previous');
    expect(first.changes.map((change) => [change.path, change.kind])).toEqual([
      ['/cors', 'added'],
      ['/target', 'added'],
    ]);
    const none = await changes(ids[4]!, '*');
    expect(none).not.toHaveProperty('resource');
    expect(none.changes).toEqual([{ path: '/nothing', kind: 'added', after: true }]);
  });

  it('answers 404 for an entry of another trail or none, and 400 for an id that is not one', async () => {
    const other = await server.api(`/api/v1/audit-log/entries/${ids[3]!}/changes`, { roles: ['Auditor'] });
    expect(other.status).toBe(404);
    expect(other.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(
      (await server.api('/api/v1/audit-log/entries/999999999/changes?tenant=*', { roles: ['Auditor'] }))
        .status,
    ).toBe(404);
    for (const id of ['abc', '0', '-1', '1.5', '9'.repeat(20)]) {
      const response = await server.api(`/api/v1/audit-log/entries/${id}/changes`, { roles: ['Auditor'] });
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    }
  });

  it("works out an opened export file's changes exactly as the server does for the stored trail", async () => {
    for (const format of ['ndjson', 'csv'] as const) {
      const response = await server.api(`/api/v1/audit-log/export?tenant=acme&format=${format}`, {
        roles: ['Auditor'],
      });
      expect(response.status).toBe(200);
      const file = parseAuditFile(await response.text());
      if (!file.ok) throw new Error(file.message);
      expect(file.entries).toHaveLength(6);
      for (const entry of file.entries)
        expect(fileEntryChanges(file.entries, entry), `${format} entry ${entry.id}`).toEqual(
          await changes(entry.id),
        );
    }
  });
});
