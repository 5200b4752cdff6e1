import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, NewAuditEntry } from '../../src-server/core/audit/audit-entry.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

interface Page {
  items: AuditEntry[];
  totalCount: number;
  continuationToken?: string;
}

const BASE = Date.parse('2026-03-01T00:00:00.000Z');

function imported(minutes: number, parameters: Record<string, unknown>): NewAuditEntry {
  return {
    actionName: 'Process.Deploy',
    userName: 'alice',
    timestamp: new Date(BASE + minutes * 60_000).toISOString(),
    parameters,
    resources: [],
    category: 'general',
  };
}

describe('full-text search of the parameters over HTTP', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ settings: { 'Flags:EnableServiceApiAuditLogRoute': true } });
    await server.gatehouse.audit.store.importEntries(
      [
        imported(1, { targetUrl: 'https://orders.example.com/v1/Order-Sync', retries: 3 }),
        imported(2, { nested: { list: ['Invoice export', { deep: 'Zürich café' }] }, enabled: true }),
        imported(3, { note: 'line one\nline two', nul: 'a\u0000b', lone: 'x\uD800y' }),
        imported(4, { name: 'billing', description: 'orders of another kind' }),
      ],
      undefined,
      { tenant: 'acme' },
    );
  });
  afterAll(() => server.close());

  function minutesOf(item: AuditEntry): number {
    return (Date.parse(item.timestamp) - BASE) / 60_000;
  }

  async function found(text: string, more = ''): Promise<number[]> {
    const response = await server.api(
      `/api/v1/audit-log?tenant=acme&search=${encodeURIComponent(text)}${more}`,
      { roles: ['Auditor'] },
    );
    expect(response.status, await response.clone().text()).toBe(200);
    const page = (await response.json()) as Page;
    expect(page.totalCount).toBe(page.items.length);
    return page.items.map(minutesOf);
  }

  it('finds words of values at any depth, any case, each word as the start of one', async () => {
    expect(await found('orders')).toEqual([4, 1]);
    expect(await found('ORDER sync')).toEqual([1]);
    expect(await found('order-sync')).toEqual([1]);
    expect(await found('example.com')).toEqual([1]);
    expect(await found('invoice')).toEqual([2]);
    expect(await found('zürich CAFÉ')).toEqual([2]);
    expect(await found('two')).toEqual([3]);
    expect(await found('3')).toEqual([1]);
    // Every word must be there.
    expect(await found('orders billing')).toEqual([4]);
    expect(await found('orders nowhere')).toEqual([]);
    // Values only: a key is not a value.
    expect(await found('targetUrl')).toEqual([]);
    expect(await found('billing', '&userName=bob')).toEqual([]);
  });

  it('pages a search by continuation token', async () => {
    const first = (await (
      await server.api('/api/v1/audit-log?tenant=acme&search=orders&PageSize=1', { roles: ['Auditor'] })
    ).json()) as Page;
    expect(first.totalCount).toBe(2);
    const second = (await (
      await server.api(
        `/api/v1/audit-log?tenant=acme&search=orders&continuationToken=${encodeURIComponent(first.continuationToken!)}`,
        { roles: ['Auditor'] },
      )
    ).json()) as Page;
    expect(second.items.map(minutesOf)).toEqual([1]);
    const other = await server.api(
      `/api/v1/audit-log?tenant=acme&search=billing&continuationToken=${encodeURIComponent(first.continuationToken!)}`,
      { roles: ['Auditor'] },
    );
    expect(((await other.json()) as { code: string }).code).toBe('GH_ERR_CONTINUATION_TOKEN_MISMATCH');
  });

  it('never finds a secret: parameters hold only its mask', async () => {
    const response = await server.api('/api/v1/app-registrations', {
      method: 'POST',
      body: JSON.stringify({ name: 'Search pipeline', roles: ['Auditor'] }),
    });
    expect(response.status).toBe(201);
    const created = (await response.json()) as { registration: { clientId: string }; clientSecret: string };
    const own = async (text: string) =>
      (
        (await (
          await server.api(`/api/v1/audit-log?search=${encodeURIComponent(text)}`, { roles: ['Auditor'] })
        ).json()) as Page
      ).items;
    expect((await own(created.registration.clientId)).map((item) => item.actionName)).toEqual([
      'AppRegistrations.Create',
    ]);
    expect(await own(created.clientSecret)).toEqual([]);
    for (const part of created.clientSecret.split(/[^\p{L}\p{N}]+/u).filter((word) => word.length >= 8))
      expect(await own(part)).toEqual([]);
  });

  it('refuses a search without a letter or digit, or too long', async () => {
    for (const text of [
      '  ',
      '*** --',
      'x'.repeat(501),
      Array.from({ length: 17 }, (_, k) => `w${k}`).join(' '),
    ]) {
      const response = await server.api(`/api/v1/audit-log?search=${encodeURIComponent(text)}`, {
        roles: ['Auditor'],
      });
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(Object.keys(((await response.json()) as { errors: object }).errors)).toEqual(['search']);
    }
  });
});
