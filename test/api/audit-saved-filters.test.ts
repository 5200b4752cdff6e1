import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src-server/core/audit/audit-entry.js';
import type { SavedFilter } from '../../src-server/core/contracts/saved-filter-schemas.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

describe('saved audit filters over HTTP', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ settings: { 'Flags:EnableServiceApiAuditLogRoute': true } });
  });
  afterAll(() => server.close());

  const save = (userName: string, body: unknown) =>
    server.api('/api/v1/audit-log/saved-filters', {
      method: 'POST',
      roles: ['Auditor'],
      userName,
      body: JSON.stringify(body),
    });
  const list = async (userName: string): Promise<SavedFilter[]> => {
    const response = await server.api('/api/v1/audit-log/saved-filters', { roles: ['Auditor'], userName });
    expect(response.status).toBe(200);
    return ((await response.json()) as { items: SavedFilter[] }).items;
  };

  it('saves, lists, applies and deletes filters per user, auditing the changes', async () => {
    const filter = { tenant: 'acme', actionName: 'Api.Create', startDateTimeUtc: '2026-03-01T00:00:00.000Z' };
    const created = await save('alice', { name: ' Acme creations ', filter });
    expect(created.status).toBe(201);
    const saved = (await created.json()) as SavedFilter;
    expect(saved).toMatchObject({ name: 'Acme creations', filter });
    expect(created.headers.get('location')).toBe(`/api/v1/audit-log/saved-filters/${saved.id}`);
    expect((await save('alice', { name: 'Bob only', filter: { userName: 'bob' } })).status).toBe(201);

    expect((await list('alice')).map((item) => item.name)).toEqual(['Acme creations', 'Bob only']);
    // Another user sees none of them and cannot delete them.
    expect(await list('bob')).toEqual([]);
    const foreign = await server.api(`/api/v1/audit-log/saved-filters/${saved.id}`, {
      method: 'DELETE',
      roles: ['Auditor'],
      userName: 'bob',
    });
    expect(foreign.status).toBe(404);

    // The same name in another case is a conflict for the same user, and fine for another.
    const duplicate = await save('alice', { name: 'ACME CREATIONS', filter: {} });
    expect(duplicate.status).toBe(409);
    expect(duplicate.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect((await save('bob', { name: 'Acme creations', filter: {} })).status).toBe(201);

    const removed = await server.api(`/api/v1/audit-log/saved-filters/${saved.id}`, {
      method: 'DELETE',
      roles: ['Auditor'],
      userName: 'alice',
    });
    expect(removed.status).toBe(204);
    expect((await list('alice')).map((item) => item.name)).toEqual(['Bob only']);

    await server.gatehouse.audit.store.flush();
    const trail = await server.api('/api/v1/audit-log?userName=alice&PageSize=50', { roles: ['Auditor'] });
    const items = ((await trail.json()) as { items: AuditEntry[] }).items;
    const changes = items.filter((item) => item.actionName.startsWith('SavedAuditFilters.'));
    expect(changes.map((item) => [item.actionName, item.statusCode])).toEqual([
      ['SavedAuditFilters.Delete', 204],
      ['SavedAuditFilters.Create', 409],
      ['SavedAuditFilters.Create', 201],
      ['SavedAuditFilters.Create', 201],
    ]);
    expect(changes[0]!.resources).toEqual([
      { type: 'SavedAuditFilter', id: saved.id, name: 'Acme creations' },
    ]);
  });

  it('refuses bad input with a problem naming the field', async () => {
    for (const body of [
      { name: '', filter: {} },
      { name: 'x'.repeat(101), filter: {} },
      { name: 'ok', filter: { 'bad name': 'x' } },
      { name: 'ok', filter: { actionName: 42 } },
      { name: 'ok' },
    ]) {
      const response = await save('carol', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    }
    const notJson = await server.api('/api/v1/audit-log/saved-filters', {
      method: 'POST',
      roles: ['Auditor'],
      body: '{',
    });
    expect(notJson.status).toBe(400);
  });

  it('needs a token, and a role that may save', async () => {
    expect((await server.api('/api/v1/audit-log/saved-filters', { token: null })).status).toBe(401);
    const denied = await server.api('/api/v1/audit-log/saved-filters', {
      method: 'POST',
      roles: [],
      body: JSON.stringify({ name: 'x', filter: {} }),
    });
    expect(denied.status).toBe(403);
  });
});
