import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, NewAuditEntry } from '../../src-server/core/audit/audit-entry.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

interface Page {
  items: AuditEntry[];
  pageNumber: number;
  pageSize: number;
  totalCount: number;
}

const BASE = Date.parse('2026-03-01T00:00:00.000Z');
const HOUR = 3_600_000;

function entry(
  hoursAfterBase: number,
  actionName: string,
  userName: string,
  extra: Partial<NewAuditEntry> = {},
): NewAuditEntry {
  return {
    actionName,
    userName,
    timestamp: new Date(BASE + hoursAfterBase * HOUR).toISOString(),
    parameters: { hours: hoursAfterBase },
    resources: [],
    category: 'general',
    ...extra,
  };
}

describe('GET /api/v1/audit-log', () => {
  let server: TestServer;
  const seeded: NewAuditEntry[] = [];

  beforeAll(async () => {
    server = await startTestServer({
      settings: { 'Flags:EnableServiceApiAuditLogRoute': true },
      // Entries lie in March 2026; keep "now" there so retention leaves them alone.
      now: () => new Date(BASE + 100 * HOUR),
    });
    const users = ['alice', 'Bob', 'carol'];
    const actions = ['Process.Deploy', 'EnvironmentVariable.Modify', 'Agent.Started', 'TaskImport.Import'];
    for (let i = 0; i < 75; i++) {
      seeded.push(entry(i, actions[i % actions.length]!, users[i % users.length]!, { parameters: { i } }));
    }
    // Three entries share one timestamp: the tie is broken by id, descending.
    seeded.push(entry(10, 'Tie.First', 'tie'), entry(10, 'Tie.Second', 'tie'), entry(10, 'Tie.Third', 'tie'));
    await server.gatehouse.audit.store.importEntries(seeded);
  });
  afterAll(() => server.close());

  async function list(query: string, roles = ['Auditor']): Promise<Page> {
    const response = await server.api(`/api/v1/audit-log${query}`, { roles });
    expect(response.status, await response.clone().text()).toBe(200);
    return (await response.json()) as Page;
  }

  async function invalid(query: string): Promise<Record<string, string[]>> {
    const response = await server.api(`/api/v1/audit-log${query}`, { roles: ['Auditor'] });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const body = (await response.json()) as { errors: Record<string, string[]> };
    return body.errors;
  }

  const seededOnly = (items: AuditEntry[]) =>
    items.filter((item) => item.category === 'general' && item.userName !== 'test-operator');

  it('returns the seed contract with defaults PageNumber 1 and PageSize 30', async () => {
    const page = await list('');
    // The seed's four members, and the token of the next page (more than 30 entries follow).
    expect(Object.keys(page).sort()).toEqual([
      'continuationToken',
      'items',
      'pageNumber',
      'pageSize',
      'totalCount',
    ]);
    expect(page.pageNumber).toBe(1);
    expect(page.pageSize).toBe(30);
    expect(page.items).toHaveLength(30);
    expect(page.totalCount).toBeGreaterThanOrEqual(seeded.length);
    for (const item of page.items) {
      expect(item).toEqual(
        expect.objectContaining({
          actionName: expect.any(String),
          userName: expect.any(String),
          timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
          parameters: expect.any(Object),
        }),
      );
    }
  });

  it('orders by timestamp descending, then id descending, stably across pages', async () => {
    const all: AuditEntry[] = [];
    for (let pageNumber = 1; ; pageNumber++) {
      const page = await list(`?PageNumber=${pageNumber}&PageSize=7`);
      all.push(...page.items);
      if (page.items.length < 7) break;
    }
    expect(all.length).toBe((await list('')).totalCount);
    for (let i = 1; i < all.length; i++) {
      const [a, b] = [all[i - 1]!, all[i]!];
      expect(a.timestamp > b.timestamp || (a.timestamp === b.timestamp && a.id > b.id)).toBe(true);
    }
    const ties = all.filter((item) => item.userName === 'tie').map((item) => item.actionName);
    expect(ties).toEqual(['Tie.Third', 'Tie.Second', 'Tie.First']);
  });

  it('matches actionName and userName exactly, case-insensitively', async () => {
    const byAction = await list('?actionName=process.deploy&PageSize=200');
    expect(byAction.totalCount).toBe(seeded.filter((e) => e.actionName === 'Process.Deploy').length);
    expect(byAction.items.every((item) => item.actionName === 'Process.Deploy')).toBe(true);
    expect((await list('?actionName=Process.Dep')).totalCount).toBe(0);
    const byUser = await list('?userName=BOB&PageSize=200');
    expect(byUser.totalCount).toBe(seeded.filter((e) => e.userName === 'Bob').length);
    expect((await list('?userName=bo')).totalCount).toBe(0);
    const both = await list('?userName=alice&actionName=Process.Deploy&PageSize=200');
    expect(both.totalCount).toBe(
      seeded.filter((e) => e.userName === 'alice' && e.actionName === 'Process.Deploy').length,
    );
  });

  it('includes startDateTimeUtc and excludes endDateTimeUtc', async () => {
    const start = new Date(BASE + 20 * HOUR).toISOString();
    const end = new Date(BASE + 30 * HOUR).toISOString();
    const page = await list(`?startDateTimeUtc=${start}&endDateTimeUtc=${end}&PageSize=200`);
    const hours = seededOnly(page.items).map((item) => (item.parameters as { i: number }).i);
    expect(hours.sort((a, b) => a - b)).toEqual([20, 21, 22, 23, 24, 25, 26, 27, 28, 29]);
  });

  it('reads a date-time without an offset as UTC, and honours explicit offsets', async () => {
    const withZ = await list('?startDateTimeUtc=2026-03-02T00:00:00Z&endDateTimeUtc=2026-03-02T05:00:00Z');
    const without = await list('?StartDateTimeUtc=2026-03-02T00:00:00&EndDateTimeUtc=2026-03-02T05:00:00');
    const offset = await list(
      '?startDateTimeUtc=2026-03-02T02:00:00%2B02:00&endDateTimeUtc=2026-03-02T07:00:00%2B02:00',
    );
    expect(withZ.totalCount).toBe(5);
    expect(without).toEqual(withZ);
    expect(offset).toEqual(withZ);
  });

  it('answers a page past the end with no items and the true totalCount', async () => {
    const total = (await list('')).totalCount;
    const page = await list('?PageNumber=999&PageSize=200');
    expect(page).toEqual({ items: [], pageNumber: 999, pageSize: 200, totalCount: total });
  });

  it('matches parameter names case-insensitively', async () => {
    expect((await list('?pagesize=5')).items).toHaveLength(5);
    expect((await list('?PAGESIZE=5&pagenumber=2')).pageNumber).toBe(2);
    expect((await list('?USERNAME=alice')).totalCount).toBe((await list('?userName=alice')).totalCount);
  });

  it('refuses bad values with a ValidationProblemDetails naming the parameter', async () => {
    expect(Object.keys(await invalid('?PageSize=0'))).toEqual(['PageSize']);
    expect(Object.keys(await invalid('?PageSize=201'))).toEqual(['PageSize']);
    expect(Object.keys(await invalid('?PageNumber=0'))).toEqual(['PageNumber']);
    expect(Object.keys(await invalid('?PageNumber=abc'))).toEqual(['PageNumber']);
    expect(Object.keys(await invalid('?PageSize=1.5'))).toEqual(['PageSize']);
    expect(Object.keys(await invalid('?startDateTimeUtc=yesterday'))).toEqual(['startDateTimeUtc']);
    expect(Object.keys(await invalid('?endDateTimeUtc=2026-02-30T00:00:00Z'))).toEqual(['endDateTimeUtc']);
    expect(
      Object.keys(
        await invalid('?startDateTimeUtc=2026-03-02T00:00:00Z&endDateTimeUtc=2026-03-01T00:00:00Z'),
      ),
    ).toEqual(['endDateTimeUtc']);
    expect(Object.keys(await invalid('?PageSize=10&pagesize=20'))).toEqual(['PageSize']);
    expect(Object.keys(await invalid('?actionName=NoDot'))).toEqual(['actionName']);
    // Repeating a parameter with the same value is not a conflict.
    expect((await list('?PageSize=10&pagesize=10')).pageSize).toBe(10);
  });

  it('is read-only: other methods answer 405 with Allow: GET, HEAD', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const response = await server.api('/api/v1/audit-log', {
        method,
        body: method === 'DELETE' ? undefined : '{}',
      });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD');
    }
    const head = await server.api('/api/v1/audit-log', { method: 'HEAD', roles: ['Auditor'] });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('needs a role with AuditLog.View', async () => {
    expect((await server.api('/api/v1/audit-log', { roles: [] })).status).toBe(403);
    expect((await server.api('/api/v1/audit-log', { token: null })).status).toBe(401);
    expect((await server.api('/api/v1/audit-log', { roles: ['Administrator'] })).status).toBe(200);
  });

  it('lists the distinct action and user names for filter suggestions', async () => {
    const response = await server.api('/api/v1/audit-log/facets', { roles: ['Auditor'] });
    expect(response.status).toBe(200);
    const facets = (await response.json()) as { actionNames: string[]; userNames: string[] };
    expect(facets.actionNames).toEqual(
      expect.arrayContaining(['Process.Deploy', 'TaskImport.Import', 'Tie.First']),
    );
    expect(facets.userNames).toEqual(expect.arrayContaining(['alice', 'Bob', 'carol', 'tie']));
  });

  it('exports the current filter as NDJSON and CSV, in list order', async () => {
    const ndjson = await server.api('/api/v1/audit-log/export?format=ndjson&userName=carol', {
      roles: ['Auditor'],
    });
    expect(ndjson.status).toBe(200);
    expect(ndjson.headers.get('content-type')).toMatch(/application\/x-ndjson/);
    const lines = (await ndjson.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as AuditEntry);
    const expected = await list('?userName=carol&PageSize=200');
    expect(lines).toEqual(expected.items);
    const csv = await server.api('/api/v1/audit-log/export?format=csv&userName=carol', {
      roles: ['Auditor'],
    });
    const rows = (await csv.text()).trim().split('\r\n');
    expect(rows[0]).toBe(
      'id,timestamp,actionName,userName,category,statusCode,agentGroup,resources,parameters,description,sourceId,tenant',
    );
    expect(rows).toHaveLength(expected.totalCount + 1);
  });

  it('never answers 5xx, whatever the query string (fuzzed)', async () => {
    const names = [
      'PageNumber',
      'pagesize',
      'PageSize',
      'startDateTimeUtc',
      'EndDateTimeUtc',
      'actionName',
      'userName',
      'tenant',
      'TENANT',
      'x',
    ];
    const token = await server.token(['Auditor']);
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.tuple(
            fc.constantFrom(...names),
            fc.oneof(
              fc.string(),
              fc.integer().map(String),
              fc.date().map((d) => (Number.isNaN(d.getTime()) ? 'x' : d.toISOString())),
            ),
          ),
          {
            maxLength: 6,
          },
        ),
        fc.string({ maxLength: 30 }),
        async (pairs, raw) => {
          const search = new URLSearchParams(pairs).toString();
          for (const query of [search, `${search}&${raw}`]) {
            const response = await fetch(`${server.url}/api/v1/audit-log?${query}`, {
              headers: { Authorization: `Bearer ${token}` },
            });
            await response.arrayBuffer();
            expect(
              response.status === 200 || response.status === 400,
              `${response.status} for ?${query}`,
            ).toBe(true);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
