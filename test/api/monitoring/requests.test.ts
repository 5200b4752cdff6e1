import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MonitoringRecord } from '../../../src-server/core/monitoring/monitoring-record.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';
import {
  BASE_MS,
  filter,
  newRecord,
  newestFirst,
  record,
  referenceMatches,
} from '../../unit/monitoring/helpers.js';
import {
  anyCase,
  filterQuery,
  getJson,
  recordThroughSink,
  toSearch,
  validationErrors,
  type ListPage,
} from './helpers.js';

const LIST = '/api/v1/monitoring/requests';

/** Status codes the endpoint accepts (the store also keeps 0 and odd codes; those are filtered by class). */
const httpFilter = filter.filter(
  (f) => f.status === undefined || !('code' in f.status) || (f.status.code >= 100 && f.status.code <= 599),
);

describe('GET /api/v1/monitoring/requests', () => {
  let server: TestServer;
  let stored: MonitoringRecord[];

  beforeAll(async () => {
    server = await startTestServer();
    const records = fc.sample(newRecord, { numRuns: 400, seed: 42 });
    stored = await recordThroughSink(server, records);
  });
  afterAll(() => server.close());

  const list = (search: string, roles?: string[]) => getJson<ListPage>(server, `${LIST}${search}`, roles);

  it('records what the sink receives and lists it newest first in the management list shape', async () => {
    expect(stored).toHaveLength(400);
    const page = await list('');
    expect(Object.keys(page).sort()).toEqual(['data', 'paging']);
    expect(page.paging).toEqual({
      currentPage: 1,
      pageSize: 50,
      totalCount: 400,
      firstPage: 1,
      lastPage: 8,
      nextPage: 2,
      previousPage: null,
    });
    expect(page.data).toEqual([...stored].sort(newestFirst).slice(0, 50));
    const all: MonitoringRecord[] = [];
    for (let pageNumber = 1; pageNumber <= 3; pageNumber++) {
      all.push(...(await list(`?PageNumber=${pageNumber}&PageSize=150`)).data);
    }
    expect(all.map((r) => r.id)).toEqual([...stored].sort(newestFirst).map((r) => r.id));
    expect((await list('?pageSize=500')).data).toHaveLength(400);
  });

  it('applies every filter like the reference implementation, parameter names in any case', async () => {
    await fc.assert(
      fc.asyncProperty(
        httpFilter.chain((f) =>
          fc.tuple(
            fc.constant(f),
            filterQuery(f),
            fc.integer({ min: 1, max: 4 }),
            fc.integer({ min: 1, max: 60 }),
          ),
        ),
        async ([f, parts, pageNumber, pageSize]) => {
          const search = toSearch([
            ...parts,
            ['PageNumber', String(pageNumber)],
            ['PageSize', String(pageSize)],
          ]);
          if (f.startMs !== undefined && f.endMs !== undefined && f.endMs < f.startMs) {
            expect(Object.keys(await validationErrors(server, `${LIST}${search}`))).toEqual([
              'endDateTimeUtc',
            ]);
            return;
          }
          const page = await list(search);
          const matching = stored.filter((r) => referenceMatches(r, f)).sort(newestFirst);
          expect(page.paging.totalCount).toBe(matching.length);
          expect(page.data.map((r) => r.id)).toEqual(
            matching.slice((pageNumber - 1) * pageSize, pageNumber * pageSize).map((r) => r.id),
          );
        },
      ),
      { numRuns: 150 },
    );
  });

  it('matches the path prefix case-sensitively and the method case-insensitively', async () => {
    const byPath = (await list('?path=/orders/1&PageSize=500')).data;
    expect(byPath.length).toBeGreaterThan(0);
    expect(byPath.every((r) => r.path.startsWith('/orders/1'))).toBe(true);
    expect(byPath.some((r) => r.path === '/orders/12')).toBe(true);
    expect((await list('?path=/ORDERS/1')).paging.totalCount).toBe(0);
    const post = await list('?method=post&PageSize=500');
    expect(post.data.every((r) => r.method.toUpperCase() === 'POST')).toBe(true);
    expect(post.paging.totalCount).toBe(stored.filter((r) => r.method.toUpperCase() === 'POST').length);
  });

  it('returns one record by id, 404 for an unknown one, 400 for a malformed one', async () => {
    const target = stored[123]!;
    expect(await getJson<MonitoringRecord>(server, `${LIST}/${target.id}`)).toEqual(target);
    const missing = await server.api(`${LIST}/999999`, { roles: ['Auditor'] });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    for (const bad of ['abc', '0', '-1', '1.5', '9'.repeat(20)]) {
      expect((await server.api(`${LIST}/${bad}`, { roles: ['Auditor'] })).status).toBe(400);
    }
  });

  it('needs a token that grants Monitoring.View', async () => {
    expect((await server.api(LIST, { token: null })).status).toBe(401);
    expect((await server.api(LIST, { roles: ['NotARole'] })).status).toBe(403);
    for (const role of ['Auditor', 'Administrator', 'Operator']) {
      expect((await server.api(LIST, { roles: [role] })).status).toBe(200);
    }
  });

  it('answers 400 naming the parameter for each invalid filter', async () => {
    const cases: [string, string][] = [
      ['status=6xx', 'status'],
      ['status=44', 'status'],
      ['status=abc', 'status'],
      ['status=600', 'status'],
      ['minDurationMs=-1', 'minDurationMs'],
      ['minDurationMs=fast', 'minDurationMs'],
      ['minDurationMs=1e3', 'minDurationMs'],
      ['method=GE%20T', 'method'],
      ['path=orders', 'path'],
      [`path=/${'x'.repeat(2048)}`, 'path'],
      ['outcome=exploded', 'outcome'],
      ['startDateTimeUtc=yesterday', 'startDateTimeUtc'],
      ['endDateTimeUtc=2026-02-30T00:00:00Z', 'endDateTimeUtc'],
      ['startDateTimeUtc=2026-03-02T00:00:00Z&endDateTimeUtc=2026-03-01T00:00:00Z', 'endDateTimeUtc'],
      ['PageSize=501', 'PageSize'],
      ['PageSize=0', 'PageSize'],
      ['PageNumber=0', 'PageNumber'],
      ['apiId=a&APIID=b', 'apiId'],
      [`agentGroupId=${'g'.repeat(201)}`, 'agentGroupId'],
    ];
    for (const [search, parameter] of cases) {
      const errors = await validationErrors(server, `${LIST}?${search}`);
      expect(Object.keys(errors), search).toEqual([parameter]);
    }
  });

  it('never answers a fuzzed query string with a 5xx', async () => {
    const names = [
      'startDateTimeUtc',
      'endDateTimeUtc',
      'apiId',
      'operation',
      'status',
      'method',
      'minDurationMs',
      'path',
      'agentGroupId',
      'outcome',
      'PageNumber',
      'PageSize',
      'other',
    ];
    const value = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 30 }),
      fc.string({ unit: 'binary', maxLength: 10 }),
      fc.constantFrom(
        '',
        '%',
        '%E0%A4%A',
        '5xx',
        '404',
        '1e309',
        '-0',
        'NaN',
        '2026-03-01',
        '/'.repeat(3000),
        '9'.repeat(400),
      ),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom(...names).chain(anyCase), value), { maxLength: 6 }),
        fc.boolean(),
        async (parts, raw) => {
          // Either properly encoded, or glued together raw (broken percent escapes and all).
          const search = raw ? `?${parts.map(([name, v]) => `${name}=${v}`).join('&')}` : toSearch(parts);
          for (const path of [LIST, '/api/v1/monitoring/summary']) {
            const response = await server.api(`${path}${search}`, { roles: ['Auditor'] });
            // 200, a 400 naming the parameter, or 431 from Node's parser for a URL past its header limit.
            expect(response.status, `${path}${search.slice(0, 200)} → ${response.status}`).toBeLessThan(500);
            await response.arrayBuffer();
          }
        },
      ),
      { numRuns: 120 },
    );
  });

  it('is described in the OpenAPI document under ApiMonitoring', async () => {
    const document = await getJson<{ paths: Record<string, Record<string, { tags: string[] }>> }>(
      server,
      '/swagger/v1/swagger.json',
    );
    for (const path of [
      '/api/v1/monitoring/requests',
      '/api/v1/monitoring/requests/{id}',
      '/api/v1/monitoring/summary',
    ]) {
      expect(document.paths[path]?.get?.tags).toEqual(['ApiMonitoring']);
    }
    expect(document.paths['/metrics']).toBeUndefined();
  });

  it('shows a record as soon as the sink has flushed it', async () => {
    const time = new Date(BASE_MS + 3_600_000).toISOString();
    server.gatehouse.monitoring.record(record({ time, path: '/fresh', outcome: 'timeout', status: 504 }));
    await server.gatehouse.monitoring.flush();
    const page = await list('?path=/fresh');
    expect(page.data).toEqual([
      expect.objectContaining({ time, path: '/fresh', outcome: 'timeout', status: 504 }),
    ]);
  });
});
