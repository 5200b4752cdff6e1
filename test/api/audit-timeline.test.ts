import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewAuditEntry } from '../../src-server/core/audit/audit-entry.js';
import type { AuditTimeline } from '../../src-server/core/contracts/audit-timeline-schemas.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const BASE = Date.parse('2026-03-01T00:00:00.000Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ACTIONS = [
  'Process.Deploy',
  'Role.Modify',
  'Task.Import',
  'Api.Create',
  'Api.Modify',
  'Api.Delete',
  'Policy.Create',
  'Policy.Delete',
  'Key.Create',
  'Key.Revoke',
];
const USERS = ['alice', 'Bob', 'carol'];

/** 300 entries, one every 37 minutes from BASE (about 7.7 days), ten actions and three users in turn. */
const SEEDED: NewAuditEntry[] = Array.from({ length: 300 }, (_, i) => ({
  actionName: ACTIONS[i % ACTIONS.length]!,
  userName: USERS[i % USERS.length]!,
  timestamp: new Date(BASE + i * 37 * 60_000).toISOString(),
  parameters: { i },
  resources: [],
  category: 'general' as const,
}));
const ACME: NewAuditEntry[] = [
  { ...SEEDED[0]!, userName: 'dan', parameters: { acme: 1 } },
  { ...SEEDED[1]!, userName: 'dan', parameters: { acme: 2 } },
];
/** A tenant of its own for the search and resource filters: one entry with the word, one touching the API. */
const HAYSTACK: NewAuditEntry[] = [0, 1, 2].map((i) => ({
  ...SEEDED[i]!,
  parameters: { note: i === 1 ? 'the needle is here' : 'only hay' },
  resources: i === 2 ? [{ type: 'api', id: 'orders' }] : [],
}));

/** The expected counts, straight from the seeded entries: bucket start (ISO) → name → n. */
function expected(
  entries: NewAuditEntry[],
  size: number,
  split: 'action' | 'user',
  keep: (entry: NewAuditEntry, timeMs: number) => boolean,
): Map<string, Map<string, number>> {
  const buckets = new Map<string, Map<string, number>>();
  for (const entry of entries) {
    const timeMs = Date.parse(entry.timestamp);
    if (!keep(entry, timeMs)) continue;
    const start = new Date(Math.floor(timeMs / size) * size).toISOString();
    const name = split === 'action' ? entry.actionName : entry.userName;
    const bucket = buckets.get(start) ?? new Map<string, number>();
    bucket.set(name, (bucket.get(name) ?? 0) + 1);
    buckets.set(start, bucket);
  }
  return buckets;
}

/** A timeline as bucket start → series name → n (empty buckets and zero cells left out). */
function cellsOf(timeline: AuditTimeline): Map<string, Map<string, number>> {
  const cells = new Map<string, Map<string, number>>();
  for (const bucket of timeline.buckets) {
    const named = new Map<string, number>();
    bucket.counts.forEach((n, index) => {
      if (n > 0) named.set(timeline.series[index]!.name, n);
    });
    expect(bucket.total).toBe(bucket.counts.reduce((a, b) => a + b, 0));
    if (named.size > 0) cells.set(bucket.start, named);
  }
  return cells;
}

/** Expected counts with the names the timeline does not show on their own summed as Other. */
function folded(
  timeline: AuditTimeline,
  want: Map<string, Map<string, number>>,
): Map<string, Map<string, number>> {
  const shown = new Set(timeline.series.filter((s) => !s.other).map((s) => s.name));
  const result = new Map<string, Map<string, number>>();
  for (const [bucket, names] of want) {
    const cell = new Map<string, number>();
    for (const [name, n] of names) {
      const as = shown.has(name) ? name : 'Other';
      cell.set(as, (cell.get(as) ?? 0) + n);
    }
    result.set(bucket, cell);
  }
  return result;
}

/** The seven names with the most entries, ties by the lower-cased name: the series shown before Other. */
function busiest(want: Map<string, Map<string, number>>): string[] {
  const totals = new Map<string, number>();
  for (const names of want.values())
    for (const [name, n] of names) totals.set(name, (totals.get(name) ?? 0) + n);
  const key = (name: string) => name.toLowerCase();
  return [...totals]
    .sort((a, b) => b[1] - a[1] || (key(a[0]) < key(b[0]) ? -1 : 1))
    .slice(0, 7)
    .map(([name]) => name);
}

describe('GET /api/v1/audit-log/timeline over HTTP', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({
      settings: { 'Flags:EnableServiceApiAuditLogRoute': true },
      // The server's own start-up entries fall a month after the seeded ones, outside every range below.
      now: () => new Date(BASE + 30 * DAY),
    });
    await server.gatehouse.audit.store.importEntries(SEEDED);
    await server.gatehouse.audit.store.importEntries(ACME, undefined, { tenant: 'acme' });
    await server.gatehouse.audit.store.importEntries(HAYSTACK, undefined, { tenant: 'haystack' });
  });
  afterAll(() => server.close());

  async function timeline(query: string): Promise<AuditTimeline> {
    const response = await server.api(`/api/v1/audit-log/timeline${query}`, { roles: ['Auditor'] });
    expect(response.status, await response.clone().text()).toBe(200);
    return (await response.json()) as AuditTimeline;
  }

  async function totalCount(query: string): Promise<number> {
    const response = await server.api(`/api/v1/audit-log${query}`, { roles: ['Auditor'] });
    expect(response.status).toBe(200);
    return ((await response.json()) as { totalCount: number }).totalCount;
  }

  async function invalid(query: string): Promise<Record<string, string[]>> {
    const response = await server.api(`/api/v1/audit-log/timeline${query}`, { roles: ['Auditor'] });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    return ((await response.json()) as { errors: Record<string, string[]> }).errors;
  }

  const iso = (ms: number) => new Date(ms).toISOString();

  it('counts a range of days per day and action, partial first and last days included', async () => {
    const start = BASE + 13 * HOUR + 5 * 60_000;
    const end = BASE + 5 * DAY + 7 * HOUR;
    const query = `?startDateTimeUtc=${iso(start)}&endDateTimeUtc=${iso(end)}`;
    const result = await timeline(query);
    expect(result.interval).toBe('day');
    expect(result.splitBy).toBe('action');
    expect(result.buckets.map((bucket) => bucket.start)).toEqual(
      [0, 1, 2, 3, 4, 5].map((day) => iso(BASE + day * DAY)),
    );
    expect(result.total).toBe(await totalCount(query));
    // Ten actions: the seven busiest of their own, three summed as Other. Four have 19 entries in the range and
    // six 18, so three of those six are shown: the first by name.
    const want = expected(SEEDED, DAY, 'action', (_e, t) => t >= start && t < end);
    expect(result.series).toHaveLength(8);
    expect(result.series.slice(0, 7).map((s) => s.name)).toEqual(busiest(want));
    expect(result.series.slice(4, 7).map((s) => s.name)).toEqual([
      'Key.Create',
      'Key.Revoke',
      'Policy.Create',
    ]);
    expect(result.series.at(-1)).toMatchObject({ name: 'Other', other: true });
    expect(cellsOf(result)).toEqual(folded(result, want));
  });

  it('counts a short range per hour, split by user, names as spelled', async () => {
    const start = BASE + DAY + 30 * 60_000;
    const end = BASE + DAY + 20 * HOUR;
    const query = `?startDateTimeUtc=${iso(start)}&endDateTimeUtc=${iso(end)}&splitBy=user`;
    const result = await timeline(query);
    expect(result.interval).toBe('hour');
    expect(result.buckets).toHaveLength(20);
    expect(result.series.map((s) => s.name).sort()).toEqual(['Bob', 'alice', 'carol']);
    expect(cellsOf(result)).toEqual(expected(SEEDED, HOUR, 'user', (_e, t) => t >= start && t < end));
    expect(result.total).toBe(await totalCount(query));
  });

  it('counts hours per action or user, one name or all, in ranges that start and end inside hours', async () => {
    const start = BASE + 2 * DAY + 17 * 60_000;
    const end = BASE + 4 * DAY + 5 * HOUR + 41 * 60_000;
    const cases: [string, 'action' | 'user', (entry: NewAuditEntry) => boolean][] = [
      ['', 'action', () => true],
      ['', 'user', () => true],
      ['&actionName=API.CREATE', 'action', (e) => e.actionName === 'Api.Create'],
      ['&userName=bob', 'user', (e) => e.userName === 'Bob'],
      // The other split's name: no per-hour counts hold the pair, counted from the rows.
      ['&actionName=Api.Create', 'user', (e) => e.actionName === 'Api.Create'],
      ['&userName=carol', 'action', (e) => e.userName === 'carol'],
    ];
    for (const [filter, split, keep] of cases) {
      const query = `?startDateTimeUtc=${iso(start)}&endDateTimeUtc=${iso(end)}&interval=hour&splitBy=${split}${filter}`;
      const result = await timeline(query);
      expect(result.buckets, filter).toHaveLength(2 * 24 + 6);
      const want = expected(SEEDED, HOUR, split, (e, t) => t >= start && t < end && keep(e));
      expect(cellsOf(result), `${split} ${filter}`).toEqual(folded(result, want));
      expect(result.total).toBe(await totalCount(query));
    }
    // Tenant acme's entries share these hours' first ones: its own timeline holds them, the default tenant's not.
    const acme = await timeline(
      `?tenant=acme&startDateTimeUtc=${iso(BASE)}&endDateTimeUtc=${iso(BASE + 2 * HOUR)}&splitBy=user`,
    );
    expect(acme.series.map((series) => series.name)).toEqual(['dan']);
    expect(acme.total).toBe(2);
  });

  it('counts a range inside one hour, and ends that hold most of their hours, whatever the tenant', async () => {
    // Entries every 37 minutes from BASE (4:19, 4:56, 5:33, 6:10, … 9:52, …): each range's hour at an end holds
    // an entry in the part of it outside the range (4:19, 6:10, 9:52, 23:35 of the fourth day), and so does the
    // first day of each range across midnight.
    const ranges: [number, number][] = [
      [BASE + 4 * HOUR + 20 * 60_000, BASE + 4 * HOUR + 58 * 60_000],
      [BASE + 6 * HOUR + 12 * 60_000, BASE + 9 * HOUR + 50 * 60_000],
      [BASE + 6 * HOUR + 12 * 60_000, BASE + DAY + 5 * HOUR + 50 * 60_000],
      [BASE + 6 * HOUR + 12 * 60_000, BASE + 3 * DAY + 23 * HOUR + 33 * 60_000],
    ];
    for (const [start, end] of ranges)
      for (const split of ['action', 'user'] as const)
        for (const tenant of ['', '&tenant=*']) {
          const interval = end - start > 2 * DAY ? DAY : HOUR;
          const query = `?startDateTimeUtc=${iso(start)}&endDateTimeUtc=${iso(end)}&splitBy=${split}${tenant}`;
          const result = await timeline(query);
          const entries = tenant ? [...SEEDED, ...ACME, ...HAYSTACK] : SEEDED;
          const want = expected(entries, interval, split, (_e, t) => t >= start && t < end);
          expect(cellsOf(result), query).toEqual(folded(result, want));
          expect(result.total, query).toBe(await totalCount(query));
        }
  });

  it('counts ranges of one shape each on its own, whichever of them came first', async () => {
    // A statement is built once per shape (which pieces a range is read from) and run again with each range's
    // values: ranges a whole day or hour apart keep their ends' place within their buckets, so their shape.
    const cases: { start: number; end: number; interval: number; split: 'action' | 'user' }[] = [];
    for (let k = 0; k < 4; k++) {
      const start = BASE + 13 * HOUR + 5 * 60_000 + k * DAY;
      cases.push({ start, end: start + 3 * DAY + 2 * HOUR, interval: DAY, split: 'action' });
      const hourly = BASE + 5 * HOUR + 50 * 60_000 + k * (DAY + 3 * HOUR);
      cases.push({ start: hourly, end: hourly + DAY, interval: HOUR, split: 'user' });
    }
    for (const { start, end, interval, split } of [...cases, ...[...cases].reverse()]) {
      const query = `?startDateTimeUtc=${iso(start)}&endDateTimeUtc=${iso(end)}&interval=${interval === DAY ? 'day' : 'hour'}&splitBy=${split}`;
      const result = await timeline(query);
      const want = expected(SEEDED, interval, split, (_e, t) => t >= start && t < end);
      expect(cellsOf(result), query).toEqual(folded(result, want));
      expect(result.total, query).toBe(await totalCount(query));
    }
  });

  it('follows the action, user and instance filters, whichever counts serve them', async () => {
    const end = BASE + 9 * DAY;
    const cases: [string, 'action' | 'user', (entry: NewAuditEntry) => boolean][] = [
      ['&userName=BOB', 'action', (e) => e.userName === 'Bob'],
      ['&actionName=api.create', 'user', (e) => e.actionName === 'Api.Create'],
      [
        '&actionName=Api.Create&userName=alice',
        'user',
        (e) => e.actionName === 'Api.Create' && e.userName === 'alice',
      ],
      ['&userName=carol', 'user', (e) => e.userName === 'carol'],
    ];
    for (const [filter, split, keep] of cases) {
      const query = `?startDateTimeUtc=${iso(BASE + 2 * HOUR)}&endDateTimeUtc=${iso(end)}${filter}&splitBy=${split}`;
      const result = await timeline(query);
      expect(result.interval).toBe('day');
      const want = expected(SEEDED, DAY, split, (e, t) => t >= BASE + 2 * HOUR && t < end && keep(e));
      expect(cellsOf(result), filter).toEqual(folded(result, want));
      expect(result.total).toBe(await totalCount(query));
    }
    // Entries of an instance are counted from the rows: the imported ones name none, so nothing matches.
    const none = await timeline(`?endDateTimeUtc=${iso(end)}&instance=elsewhere`);
    expect(none.total).toBe(0);
    expect(none.buckets).toEqual([]);
  });

  it('follows the full-text search and the resource filter, counted from the rows', async () => {
    const end = BASE + 9 * DAY;
    for (const interval of ['day', 'hour'] as const) {
      const range = `startDateTimeUtc=${iso(BASE)}&endDateTimeUtc=${iso(BASE + 2 * DAY)}&interval=${interval}`;
      const query = `?tenant=haystack&${range}&search=needle`;
      const result = await timeline(query);
      expect(result.total).toBe(1);
      expect(result.total).toBe(await totalCount(query));
    }
    const byResource = `?tenant=haystack&endDateTimeUtc=${iso(end)}&resource=api:orders`;
    expect((await timeline(byResource)).total).toBe(1);
    expect(await totalCount(byResource)).toBe(1);
  });

  it('reads the tenant the list reads, or every tenant', async () => {
    const end = `&endDateTimeUtc=${iso(BASE + 9 * DAY)}`;
    const acme = await timeline(`?tenant=Acme&splitBy=user${end}`);
    expect(acme.series).toEqual([{ name: 'dan', total: 2 }]);
    expect(acme.buckets.filter((bucket) => bucket.total > 0)).toEqual([
      { start: iso(BASE), end: iso(BASE + DAY), total: 2, counts: [2] },
    ]);
    const all = await timeline(`?tenant=*&splitBy=user${end}`);
    expect(all.total).toBe(SEEDED.length + ACME.length + HAYSTACK.length);
    expect(all.total).toBe(await totalCount(`?tenant=*${end}`));
    // With no start, from the first entry's day to the range's last day.
    expect(all.buckets[0]!.start).toBe(iso(BASE));
    expect(all.buckets.at(-1)!.start).toBe(iso(BASE + 8 * DAY));
    expect(all.buckets.at(-1)!.total).toBe(0);
  });

  it('lists every hour of an open-ended range up to now, empty ones too', async () => {
    const result = await timeline(`?startDateTimeUtc=${iso(BASE + 30 * DAY - 3 * HOUR)}`);
    expect(result.interval).toBe('hour');
    expect(result.buckets.map((b) => b.start)).toEqual(
      [3, 2, 1, 0].map((back) => iso(BASE + 30 * DAY - back * HOUR)),
    );
    expect(result.buckets.slice(0, 3).every((b) => b.total === 0)).toBe(true);
  });

  it('takes an explicit interval, and refuses bad input with a problem naming the parameter', async () => {
    const start = iso(BASE);
    const perHour = await timeline(
      `?interval=hour&startDateTimeUtc=${start}&endDateTimeUtc=${iso(BASE + 3 * DAY)}`,
    );
    expect(perHour.buckets).toHaveLength(72);
    const perDay = await timeline(
      `?INTERVAL=Day&startDateTimeUtc=${start}&endDateTimeUtc=${iso(BASE + HOUR)}`,
    );
    expect(perDay.interval).toBe('day');
    expect(perDay.buckets).toHaveLength(1);

    expect(Object.keys(await invalid('?splitBy=resource'))).toEqual(['splitBy']);
    expect(Object.keys(await invalid('?interval=minute'))).toEqual(['interval']);
    expect(Object.keys(await invalid('?interval=hour'))).toEqual(['interval']);
    expect(
      Object.keys(
        await invalid(`?interval=hour&startDateTimeUtc=${start}&endDateTimeUtc=${iso(BASE + 8 * DAY)}`),
      ),
    ).toEqual(['interval']);
    expect(
      Object.keys(await invalid(`?startDateTimeUtc=${iso(BASE + DAY)}&endDateTimeUtc=${start}`)),
    ).toEqual(['endDateTimeUtc']);
    expect(Object.keys(await invalid('?actionName=NoDot'))).toEqual(['actionName']);
    expect(Object.keys(await invalid('?tenant=no%20such'))).toEqual(['tenant']);
  });

  it('needs a role with AuditLog.View', async () => {
    expect((await server.api('/api/v1/audit-log/timeline', { roles: [] })).status).toBe(403);
    expect((await server.api('/api/v1/audit-log/timeline', { token: null })).status).toBe(401);
  });
});
