import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, AuditFilter, NewAuditEntry } from '../../src-server/core/audit/audit-entry.js';
import { ALL_TENANTS } from '../../src-server/core/audit/audit-tenant.js';
import { MASK } from '../../src-server/core/audit/mask-secrets.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { testEngine } from '../helpers/test-database.js';

const BASE = Date.parse('2026-03-01T00:00:00.000Z');
const HOUR = 3_600_000;

/** Values whose JSON is easy to get wrong when the text is spliced rather than serialized. */
function awkward(i: number): NewAuditEntry {
  const parameters: Record<string, unknown> = {
    text: `quote " backslash \\ newline \n tab \t separators \u2028\u2029 nul \u0000 #${i}`,
    unicode: 'Zürich 東京 🚀 مرحبا',
    lone: i % 2 === 0 ? '\ud800 alone' : 'tail \udfff',
    numbers: [0, -0, 1e21, 1.5e-7, Number.MAX_SAFE_INTEGER, -1],
    nested: { deeper: [{ a: null, b: true }, []], empty: {} },
    '10': 'numeric key after a named one',
    '2': 'numeric keys come first in JSON.stringify',
  };
  // An own property named __proto__, as JSON.parse makes it.
  Object.defineProperty(parameters, '__proto__', { value: 'own', enumerable: true });
  return {
    actionName: i % 3 === 0 ? 'Json.Öffnen' : 'Json.Check',
    userName: i % 2 === 0 ? 'ÄLICE' : 'bob "the" builder',
    timestamp: new Date(BASE + i * HOUR).toISOString(),
    parameters,
    resources: i % 4 === 0 ? [{ type: 'Api', id: `api-${i}`, name: 'Name with "quotes"' }] : [],
    category: i % 5 === 0 ? 'agent' : 'general',
    ...(i % 5 === 0 && { agentGroup: { id: `group-${i}`, name: 'Agents 🚀' } }),
    ...(i % 2 === 0 && { statusCode: 200 + i }),
    ...(i % 3 === 0 && { description: 'described\r\n' }),
    ...(i % 4 === 1 && { instance: 'instance-1' }),
    ...(i % 6 === 0 && { sourceId: 9_000 + i }),
  };
}

describe('GET /api/v1/audit-log written from the stored JSON of each entry', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({
      settings: { 'Flags:EnableServiceApiAuditLogRoute': true },
      now: () => new Date(BASE + 400 * HOUR),
    });
    const { store } = server.gatehouse.audit;
    await store.importEntries(Array.from({ length: 60 }, (_, i) => awkward(i)));
    await store.importEntries(
      Array.from({ length: 25 }, (_, i) => awkward(i + 100)),
      undefined,
      { tenant: 'acme-2' },
    );
    // A recorded action holding secrets: the recorder masks them before the store keeps the entry.
    await server.gatehouse.audit.recorder.recordOfflineAction('TenantSettings.Modify', 'operator', {
      name: 'Smtp:Password',
      password: 'not-for-the-trail',
      nested: { apiKey: 'nor-this-key' },
    });
  });
  afterAll(() => server.close());

  async function listText(query: string): Promise<string> {
    const response = await server.api(`/api/v1/audit-log?${query}`, { roles: ['Auditor'] });
    const text = await response.text();
    expect(response.status, text).toBe(200);
    return text;
  }

  /** What the endpoint wrote before it spliced stored text: the parsed entries, serialized with JSON.stringify. */
  function serialized(
    items: AuditEntry[],
    page: { pageNumber: number; pageSize: number; totalCount: number; continuationToken?: string },
  ): string {
    return JSON.stringify({
      items,
      pageNumber: page.pageNumber,
      pageSize: page.pageSize,
      totalCount: page.totalCount,
      ...(page.continuationToken !== undefined && { continuationToken: page.continuationToken }),
    });
  }

  const shapes: { query: string; filter: AuditFilter; pageNumber: number; pageSize: number }[] = [
    { query: 'PageSize=200', filter: {}, pageNumber: 1, pageSize: 200 },
    { query: 'PageSize=7&PageNumber=3', filter: {}, pageNumber: 3, pageSize: 7 },
    {
      query: 'actionName=json.%C3%B6ffnen&userName=%C3%A4lice&PageSize=5',
      filter: { actionName: 'json.öffnen', userName: 'älice' },
      pageNumber: 1,
      pageSize: 5,
    },
    {
      query: `startDateTimeUtc=${new Date(BASE + 10 * HOUR).toISOString()}&endDateTimeUtc=${new Date(BASE + 40 * HOUR).toISOString()}&PageSize=9&PageNumber=2`,
      filter: { startMs: BASE + 10 * HOUR, endMs: BASE + 40 * HOUR },
      pageNumber: 2,
      pageSize: 9,
    },
    {
      query: 'tenant=acme-2&PageSize=10',
      filter: { tenant: 'acme-2' },
      pageNumber: 1,
      pageSize: 10,
    },
    {
      query: 'tenant=*&PageSize=50&PageNumber=2',
      filter: { tenant: ALL_TENANTS },
      pageNumber: 2,
      pageSize: 50,
    },
    { query: 'search=alone&PageSize=4', filter: { search: 'alone' }, pageNumber: 1, pageSize: 4 },
    { query: 'PageNumber=99', filter: {}, pageNumber: 99, pageSize: 30 },
  ];

  it('answers byte for byte what serializing the parsed entries gave, on every tenant and filter', async () => {
    const { store } = server.gatehouse.audit;
    for (const { query, filter, pageNumber, pageSize } of shapes) {
      const text = await listText(query);
      const page = JSON.parse(text) as {
        items: AuditEntry[];
        totalCount: number;
        continuationToken?: string;
      };
      const parsed = await store.query({ ...filter, pageNumber, pageSize });
      expect(parsed.totalCount, query).toBe(page.totalCount);
      expect(text, query).toBe(serialized(parsed.items, { ...page, pageNumber, pageSize }));
    }
  });

  it('continues a walk byte for byte as the parsed entries of the same position', async () => {
    const { store } = server.gatehouse.audit;
    let text = await listText('tenant=*&PageSize=11');
    let pages = 1;
    for (;;) {
      const page = JSON.parse(text) as {
        items: AuditEntry[];
        totalCount: number;
        continuationToken?: string;
      };
      if (page.continuationToken === undefined) break;
      const last = page.items.at(-1)!;
      const next = await store.seek({ tenant: ALL_TENANTS }, 11, {
        timeMs: Date.parse(last.timestamp),
        id: last.id,
      });
      text = await listText(`tenant=*&PageSize=11&continuationToken=${page.continuationToken}`);
      const answered = JSON.parse(text) as { pageNumber: number; continuationToken?: string };
      expect(text).toBe(serialized(next.items, { ...answered, pageSize: 11, totalCount: next.totalCount }));
      pages++;
    }
    expect(pages).toBeGreaterThan(5);
  });

  it('keeps secrets masked', async () => {
    const text = await listText('actionName=TenantSettings.Modify');
    const [entry] = (JSON.parse(text) as { items: AuditEntry[] }).items;
    expect(entry?.parameters).toEqual({ name: 'Smtp:Password', password: MASK, nested: { apiKey: MASK } });
    expect(text).not.toContain('not-for-the-trail');
    expect(text).not.toContain('nor-this-key');
  });

  it.runIf(testEngine() === 'sqlite')(
    'refuses an entry whose stored text is not JSON as a damaged database (503), not as a broken page',
    async () => {
      const { db } = server.gatehouse.database;
      const newest = await db
        .selectFrom('audit_entries')
        .select(['id', 'entry'])
        .where('tenant', '=', 'acme-2')
        .orderBy('time_ms', 'desc')
        .limit(1)
        .executeTakeFirstOrThrow();
      // Still `{…}` at both ends: only SQLite's json_valid tells it apart.
      await db
        .updateTable('audit_entries')
        .set({ entry: newest.entry.replace('"actionName":', '"actionName" ') })
        .where('id', '=', newest.id)
        .execute();
      try {
        const response = await server.api('/api/v1/audit-log?tenant=acme-2', {
          roles: ['Auditor'],
        });
        expect(response.status).toBe(503);
        const problem = (await response.json()) as { detail: string };
        expect(problem.detail).toMatch(/damaged.*restore/i);
      } finally {
        await db
          .updateTable('audit_entries')
          .set({ entry: newest.entry })
          .where('id', '=', newest.id)
          .execute();
      }
    },
  );
});
