import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { AuditEntry, AuditFilter, NewAuditEntry } from '../../../src-server/core/audit/audit-entry.js';
import { ALL_TENANTS } from '../../../src-server/core/audit/audit-tenant.js';
import { rollBackAudit } from '../../../src-server/core/audit/sql/audit-rollback.js';
import { after } from '../../../src-server/core/audit/sql/audit-terms.js';
import { SEARCH_BY_ID_UP_TO } from '../../../src-server/core/audit/sql/audit-search.js';
import type { Database } from '../../../src-server/core/storage/database.js';
import { ENGINES } from '../../helpers/test-database.js';
import { allIds, BASE_MS, DAY_MS, entryAt, referenceFilter, StoreFixture } from './helpers.js';

/** Values whose words begin one another (order, orders, ordering) and share entries, in two tenants. */
const VALUES = [
  'order',
  'orders',
  'Ordering sync',
  'order orders ORDERING',
  'invoice export',
  'Zürich café',
  'billing v1',
  'orderx-42',
  'nothing to see',
];

function searched(i: number): NewAuditEntry {
  const configuration = i % 5 === 0;
  return entryAt(BASE_MS + i * (DAY_MS / 7) + (i % 3) * 1_000, {
    actionName: configuration ? 'Apis.Modify' : 'Process.Deploy',
    userName: i % 2 === 0 ? 'alice' : 'bob',
    category: configuration ? 'configuration' : 'general',
    parameters: { note: VALUES[i % VALUES.length]!, nested: { list: [VALUES[(i * 3) % VALUES.length]!, i] } },
    resources: configuration ? [{ type: 'Api', id: `api-${i % 2}`, name: 'An API' }] : [],
  });
}

/** The search's specification: every word begins a word of the parameters' values (any depth, any case). */
function holdsEvery(entry: AuditEntry, search: string): boolean {
  const split = (text: string) =>
    text
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean);
  const values: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string' || typeof value === 'number') values.push(String(value));
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(entry.parameters);
  const words = values.flatMap(split);
  return split(search).every((query) => words.some((word) => word.startsWith(query)));
}

const SEARCHES = ['order', 'orders', 'ORD', 'order sync', 'orderx 42', 'zür', 'café', 'v1 billing', 'none'];

const MINUTE = 60_000;

describe.each(ENGINES)('full-text search of the audit trail on %s', (engine) => {
  let fixture: StoreFixture;
  beforeEach(async () => {
    fixture = await StoreFixture.create(engine);
  });
  afterEach(async () => {
    await fixture.dispose();
  });

  /** Every entry of every tenant, read without a search. */
  async function everything(store: Awaited<ReturnType<StoreFixture['openStore']>>): Promise<AuditEntry[]> {
    const entries: AuditEntry[] = [];
    for await (const entry of store.iterate({ tenant: ALL_TENANTS })) entries.push(entry);
    return entries;
  }

  /** Numbered pages of 7 and the first two pages by position of 9 list `expected` (ids, newest first), as counted. */
  async function expectListedAs(
    store: Awaited<ReturnType<StoreFixture['openStore']>>,
    filter: AuditFilter,
    expected: readonly number[],
    label: string,
    pageNumbers: readonly number[],
  ) {
    for (const pageNumber of pageNumbers) {
      const page = await store.query({ ...filter, pageNumber, pageSize: 7 });
      expect(page.totalCount, label).toBe(expected.length);
      const first = (pageNumber - 1) * 7;
      expect(
        page.items.map((item) => item.id),
        label,
      ).toEqual(expected.slice(first, first + 7));
    }
    const walked: number[] = [];
    let seek = await store.seek(filter, 9);
    walked.push(...seek.items.map((item) => item.id));
    if (seek.next) {
      seek = await store.seek(filter, 9, seek.next);
      walked.push(...seek.items.map((item) => item.id));
    }
    expect(seek.totalCount, label).toBe(expected.length);
    expect(walked, label).toEqual(expected.slice(0, walked.length));
  }

  /** Counts, numbered pages, pages by position, the export walk and the timeline agree with the specification. */
  async function expectSearchesAsSpecified(
    store: Awaited<ReturnType<StoreFixture['openStore']>>,
    searches: readonly string[] = SEARCHES,
  ) {
    const all = await everything(store);
    const filters: AuditFilter[] = [
      { tenant: 'acme' },
      { tenant: ALL_TENANTS },
      { tenant: 'globex', startMs: BASE_MS + DAY_MS / 3, endMs: BASE_MS + 4 * DAY_MS + DAY_MS / 2 },
      { tenant: 'acme', userName: 'Alice', startMs: BASE_MS + DAY_MS },
    ];
    for (const search of searches) {
      for (const base of filters) {
        const filter = { ...base, search };
        const label = JSON.stringify(filter);
        const expected = referenceFilter(
          all.filter((entry) => holdsEvery(entry, search)),
          filter,
        ).filter((entry) => base.tenant === ALL_TENANTS || entry.tenant === base.tenant);
        const ids = expected.map((entry) => entry.id);
        const pages: number[] = [];
        for (let pageNumber = 1; pageNumber <= Math.max(1, Math.ceil(ids.length / 4)); pageNumber++) {
          const page = await store.query({ ...filter, pageNumber, pageSize: 4 });
          expect(page.totalCount, label).toBe(ids.length);
          pages.push(...page.items.map((item) => item.id));
        }
        expect(pages, label).toEqual(ids);
        const walked: number[] = [];
        let seek = await store.seek(filter, 3);
        walked.push(...seek.items.map((item) => item.id));
        while (seek.next) {
          seek = await store.seek(filter, 3, seek.next);
          walked.push(...seek.items.map((item) => item.id));
        }
        expect(seek.totalCount, label).toBe(ids.length);
        expect(walked, label).toEqual(ids);
        expect(await allIds(store, filter), label).toEqual(ids);
        expect((await store.timeline(filter, { interval: 'day', splitBy: 'action' })).total, label).toBe(
          ids.length,
        );
      }
    }
  }

  /** A store (its clock `clock.now`) over 60 entries of tenant acme a minute apart from day 10; `at` makes more. */
  async function minuteTrail(note: (i: number) => string) {
    const clock = { now: BASE_MS + 30 * DAY_MS };
    const store = await fixture.openStore(() => clock.now);
    const at = (minutes: number, text: string) =>
      entryAt(BASE_MS + 10 * DAY_MS + minutes * MINUTE, { category: 'general', parameters: { note: text } });
    await store.importEntries(
      Array.from({ length: 60 }, (_, i) => at(i, note(i))),
      undefined,
      { tenant: 'acme' },
    );
    return { store, at, clock };
  }

  /** Each store counts a search's matches among `all` and lists its first five as the specification does. */
  async function expectFirstPageAsSpecified(
    stores: readonly Awaited<ReturnType<StoreFixture['openStore']>>[],
    all: readonly AuditEntry[],
    filter: AuditFilter & { search: string },
    label: string,
  ) {
    const expected = referenceFilter(
      all.filter((entry) => holdsEvery(entry, filter.search)),
      filter,
    ).map((entry) => entry.id);
    for (const store of stores) {
      const page = await store.query({ ...filter, pageNumber: 1, pageSize: 5 });
      expect(page.totalCount, label).toBe(expected.length);
      expect(
        page.items.map((item) => item.id),
        label,
      ).toEqual(expected.slice(0, 5));
    }
  }

  /**
   * PostgreSQL: `audit_terms` holds exactly the lexemes of the entries present, no more, and `audit_term_counts`
   * how many of each a tenant's entries hold, by the length of the prefix each shares with its entry's term before
   * (in code-point order; none: 0).
   */
  async function expectTermsOfEntries(): Promise<void> {
    if (engine !== 'postgres') return;
    const database = await fixture.openDatabase();
    try {
      const { rows } = await sql<{ missing: number; extra: number; miscounted: number }>`select
        (select count(*) from audit_entries e, unnest(tsvector_to_array(e.search_document)) as t(term)
          where not exists (select 1 from audit_terms a where a.tenant = e.tenant and a.term = t.term
            and a.time_ms = e.time_ms and a.entry_id = e.id)) as missing,
        (select count(*) from audit_terms a where not exists (select 1 from audit_entries e
          where e.id = a.entry_id and e.tenant = a.tenant and e.time_ms = a.time_ms
            and a.term = any(tsvector_to_array(e.search_document)))) as extra,
        (select count(*) from (select tenant, term, lcp, count(*) as n from (
            select a.tenant, a.term, coalesce((select min(k) - 1 from generate_series(1, length(a.term)) as k
              where substr(a.term, k, 1) is distinct from substr(p.term, k, 1)), length(a.term)) as lcp
            from audit_terms a left join lateral (select b.term from audit_terms b
              where b.entry_id = a.entry_id and b.tenant = a.tenant and b.time_ms = a.time_ms and b.term < a.term
              order by b.term desc limit 1) as p on true) as t group by tenant, term, lcp) as g
          full join audit_term_counts c on c.tenant = g.tenant and c.term = g.term and c.lcp = g.lcp
          where g.n is distinct from c.n) as miscounted`.execute(database.db);
      expect(rows[0]).toEqual({ missing: 0, extra: 0, miscounted: 0 });
    } finally {
      await database.close();
    }
  }

  // Some 700 queries: PostgreSQL's round trips take their time.
  it('finds what the specification finds, through every writer', { timeout: 120_000 }, async () => {
    let now = BASE_MS + 8 * DAY_MS;
    const store = await fixture.openStore(() => now);
    const entries = Array.from({ length: 48 }, (_, i) => searched(i));
    await store.importEntries(
      entries.filter((_, i) => i % 4 !== 3),
      undefined,
      { tenant: 'acme' },
    );
    await store.importEntries(
      entries.filter((_, i) => i % 4 === 3 || i % 6 === 0),
      undefined,
      { tenant: 'globex' },
    );
    await store.append(searched(49));
    await store.append({ ...searched(50), timestamp: new Date(BASE_MS + 2 * DAY_MS + 5).toISOString() });
    await expectSearchesAsSpecified(store);
    await expectTermsOfEntries();

    // Retention and a resource's history removal take their entries' words along; a rollback brings them back.
    const before = (await store.query({ tenant: ALL_TENANTS, search: 'order', pageNumber: 1, pageSize: 1 }))
      .totalCount;
    now += DAY_MS;
    const retained = await store.applyRetention({
      now,
      maxAgeMs: 6 * DAY_MS,
      agentWindow: 100,
      isResourceLive: () => false,
    });
    expect(retained.removed).toBeGreaterThan(0);
    const removedAt = now;
    now += 1_000;
    expect((await store.removeResourceHistory({ type: 'Api', id: 'api-0' })).removed).toBeGreaterThan(0);
    const after = (await store.query({ tenant: ALL_TENANTS, search: 'order', pageNumber: 1, pageSize: 1 }))
      .totalCount;
    expect(after).toBeLessThan(before);
    await expectSearchesAsSpecified(store, ['order', 'ORD', 'orderx 42']);
    await expectTermsOfEntries();

    await store.flush();
    const database: Database = await fixture.openDatabase();
    try {
      await rollBackAudit(database, removedAt - 1);
    } finally {
      await database.close();
    }
    const reopened = await fixture.openStore(() => now);
    expect(
      (await reopened.query({ tenant: ALL_TENANTS, search: 'order', pageNumber: 1, pageSize: 1 })).totalCount,
    ).toBe(before);
    await expectSearchesAsSpecified(reopened, ['order', 'ORD', 'orderx 42']);
    await expectTermsOfEntries();

    // PostgreSQL: an UPDATE of entries (a support engineer's, in SQL) moves their words, and their counts, along.
    if (engine === 'postgres') {
      await reopened.flush();
      const edited = await fixture.openDatabase();
      try {
        const { numAffectedRows } = await sql`update audit_entries
          set entry = replace(replace(entry, 'orders', 'ordinal'), 'Ordering', 'order')
          where id % 3 = 0`.execute(edited.db);
        expect(Number(numAffectedRows)).toBeGreaterThan(0);
      } finally {
        await edited.close();
      }
      const updated = await fixture.openStore(() => now);
      await expectSearchesAsSpecified(updated, ['order', 'ORD', 'ordi', 'orderx 42']);
      await expectTermsOfEntries();
    }
  });
  // SQLite collects a search's matches once per list into a table of its connection: what one search collected
  // must never answer another, whether they follow each other or are asked at the same time.
  it('answers each search from its own matches, one after another and at once', async () => {
    const store = await fixture.openStore(() => BASE_MS + 8 * DAY_MS);
    await store.importEntries(
      Array.from({ length: 30 }, (_, i) => searched(i)),
      undefined,
      { tenant: 'acme' },
    );
    const all = await everything(store);
    const expected = (search: string, startMs?: number) =>
      referenceFilter(
        all.filter((entry) => holdsEvery(entry, search)),
        { tenant: 'acme', startMs },
      ).map((entry) => entry.id);
    const ids = async (search: string, startMs?: number) => {
      const page = await store.query({ tenant: 'acme', search, startMs, pageNumber: 1, pageSize: 100 });
      return { total: page.totalCount, ids: page.items.map((item) => item.id) };
    };
    const midway = BASE_MS + 2 * DAY_MS;
    const searches: [string, number | undefined][] = [
      ['order', undefined],
      ['invoice', midway],
      ['zürich', undefined],
      ['nothing', midway],
      ['absent', undefined],
      ['order', midway],
    ];
    expect(expected('order').length).toBeGreaterThan(expected('invoice', midway).length);
    for (const [search, startMs] of searches) {
      const want = expected(search, startMs);
      expect(await ids(search, startMs), search).toEqual({ total: want.length, ids: want });
    }
    const together = await Promise.all(searches.map(([search, startMs]) => ids(search, startMs)));
    expect(together).toEqual(
      searches.map(([search, startMs]) => ({
        total: expected(search, startMs).length,
        ids: expected(search, startMs),
      })),
    );
  });

  // SQLite counts a search that is the whole filter from FTS5 alone and reads its page from the newest matches by
  // id; above SEARCH_BY_ID_UP_TO matches. Ids here follow time only in part: a second import of older and newer
  // entries, and appends older than the newest entry, so the candidates by id must be checked against the time
  // order (and more read) for the pages to be right. SQLite's way only: PostgreSQL reads a page from `audit_terms`
  // in list order, and this many entries took it a minute on a loaded machine.
  it.skipIf(engine !== 'sqlite')(
    'pages a common word in time order when ids do not follow it, before and after removals',
    { timeout: 120_000 },
    async () => {
      let now = BASE_MS + 40 * DAY_MS;
      const store = await fixture.openStore(() => now);
      const common = (i: number, timeMs: number) =>
        entryAt(timeMs, {
          category: 'general',
          parameters: { note: i % 2 === 0 ? 'common shared' : 'shared common commonly', n: i },
        });
      const many = SEARCH_BY_ID_UP_TO + 600;
      const half = Math.floor(many / 2);
      const minute = 60_000;
      await store.importEntries(
        Array.from({ length: half }, (_, i) => common(i, BASE_MS + 10 * DAY_MS + i * minute)),
        undefined,
        { tenant: 'acme' },
      );
      // Newer and older than the first import, interleaved; then the newest time of all is written first.
      await store.importEntries(
        Array.from({ length: many - half }, (_, i) =>
          common(half + i, BASE_MS + 10 * DAY_MS + (i % 2 === 0 ? half + i : -i - 1) * minute + 30_000),
        ),
        undefined,
        { tenant: 'acme' },
      );
      const newest = BASE_MS + 10 * DAY_MS + 2 * many * minute;
      await store.importEntries([common(many, newest)], undefined, { tenant: 'acme' });
      for (let k = 1; k <= 3; k++)
        await store.importEntries([common(many + k, newest - k * 1_000)], undefined, { tenant: 'acme' });

      const expectPagesAsSpecified = async (search: string) => {
        const all = await everything(store);
        const expected = referenceFilter(
          all.filter((entry) => holdsEvery(entry, search)),
          { tenant: 'acme' },
        ).map((entry) => entry.id);
        expect(expected.length, search).toBeGreaterThan(SEARCH_BY_ID_UP_TO);
        for (const [pageNumber, pageSize] of [
          [1, 50],
          [2, 50],
          [1, 200],
          [7, 30],
          [60, 50],
        ] as const) {
          const page = await store.query({ tenant: 'acme', search, pageNumber, pageSize });
          const start = (pageNumber - 1) * pageSize;
          expect(page.totalCount, `${search} ${pageNumber}`).toBe(expected.length);
          expect(
            page.items.map((item) => item.id),
            `${search} ${pageNumber}`,
          ).toEqual(expected.slice(start, start + pageSize));
        }
        const walked: number[] = [];
        let seek = await store.seek({ tenant: 'acme', search }, 40);
        walked.push(...seek.items.map((item) => item.id));
        for (let hop = 0; hop < 3 && seek.next; hop++) {
          seek = await store.seek({ tenant: 'acme', search }, 40, seek.next);
          walked.push(...seek.items.map((item) => item.id));
        }
        expect(seek.totalCount, search).toBe(expected.length);
        expect(walked, search).toEqual(expected.slice(0, walked.length));
        expect(walked.length, search).toBe(160);
      };
      // One term ('common'), a word that begins two ('comm'), two words.
      for (const search of ['common', 'comm', 'COMMON shared']) await expectPagesAsSpecified(search);

      // Retention removes the oldest entries (their words with them); the counts follow.
      now = BASE_MS + 10 * DAY_MS + (half + 40) * minute;
      const retained = await store.applyRetention({
        now,
        maxAgeMs: 0,
        agentWindow: 100,
        isResourceLive: () => false,
      });
      expect(retained.removed).toBeGreaterThan(0);
      now = BASE_MS + 40 * DAY_MS;
      await store.importEntries(
        Array.from({ length: retained.removed }, (_, i) => common(2 * many + i, newest + (i + 1) * minute)),
        undefined,
        { tenant: 'acme' },
      );
      for (const search of ['common', 'comm']) await expectPagesAsSpecified(search);
    },
  );

  // SQLite remembers, per connection, the terms a word begins and a query's count, and adds what entries appended
  // since hold (`audit-search-memo.ts`): every write that changes the index must change the answers with it. Each
  // search here is asked before and after each write, whole trail and over a range, on the same open store.
  it('answers a search anew after each write that changes its terms or its matches', async () => {
    const { store, at, clock } = await minuteTrail((i) => (i % 2 === 0 ? 'alpha gamma' : 'alpha'));
    const searches = ['alp', 'alpha', 'alpine', 'alp gam', 'alpha gamma'];
    const ranges: [startMinute: number | undefined, endMinute: number | undefined][] = [
      [undefined, undefined],
      [30, undefined],
      [-100, 20],
    ];
    const expectAsSpecified = async (step: string) => {
      const all = await everything(store);
      for (const search of searches)
        for (const [startMinute, endMinute] of ranges) {
          const filter = {
            tenant: ALL_TENANTS,
            search,
            ...(startMinute !== undefined && { startMs: BASE_MS + 10 * DAY_MS + startMinute * MINUTE }),
            ...(endMinute !== undefined && { endMs: BASE_MS + 10 * DAY_MS + endMinute * MINUTE }),
          };
          await expectFirstPageAsSpecified(
            [store],
            all,
            filter,
            `${step}: ${search} ${startMinute}–${endMinute}`,
          );
        }
    };
    await expectAsSpecified('first');
    // A new term that 'alp' begins, and another entry of a term known already.
    await store.append(at(70, 'alpine'));
    await expectAsSpecified('a write adding a term');
    await store.append(at(71, 'alpha'));
    await expectAsSpecified('a write adding a match');
    // An import of older entries: a new term again, before every entry there was, and a match of a known one.
    await store.importEntries([at(-50, 'alpine pass'), at(-40, 'gamma alpha')], undefined, {
      tenant: 'acme',
    });
    await expectAsSpecified('an import of older entries');
    // Another connection to the same file writes a new term (another store open on it).
    const other = await fixture.openStore(() => clock.now);
    await other.append(at(72, 'alpenglow alpha'));
    await other.flush();
    await expectAsSpecified('a write through another connection');
    // Retention removes the older entries, 'alpine' among them; the newer 'alpine' stays, then goes too.
    clock.now = BASE_MS + 10 * DAY_MS + 30 * DAY_MS;
    const policy = { agentWindow: 100, isResourceLive: () => false };
    const retained = await store.applyRetention({
      ...policy,
      now: clock.now,
      maxAgeMs: 30 * DAY_MS - 10 * MINUTE,
    });
    expect(retained.removed).toBe(12);
    await expectAsSpecified('retention removing a term');
    expect(
      (await store.applyRetention({ ...policy, now: clock.now, maxAgeMs: 30 * DAY_MS - 71 * MINUTE }))
        .removed,
    ).toBe(51);
    expect(
      (await store.query({ tenant: ALL_TENANTS, search: 'alpine', pageNumber: 1, pageSize: 5 })).totalCount,
    ).toBe(0);
    await expectAsSpecified('retention removing the last of a term');
  });

  // SQLite's memo keeps answers about the documents up to an id and adds the documents appended since; what it can't
  // add up (entries removed, entries inserted below that id: a rollback bringing removed entries back, a second
  // connection's import) or too many appended must make it start over. Each step is checked against the
  // specification and against a store opened anew (an empty memo), on the same file.
  it(
    'answers a search after removals, entries returned below the newest and many appends as a fresh store does',
    {
      timeout: 120_000,
    },
    async () => {
      const { store, at, clock } = await minuteTrail((i) => (i % 3 === 0 ? 'alpine gamma' : 'alpha'));
      const searches = ['alp', 'alpine', 'alp gam', 'gamma'];
      const expectAsFresh = async (step: string) => {
        const all = await everything(store);
        const fresh = await fixture.openStore(() => clock.now);
        for (const search of searches)
          for (const startMs of [undefined, BASE_MS + 10 * DAY_MS + 30 * MINUTE]) {
            const filter = { tenant: ALL_TENANTS, search, ...(startMs !== undefined && { startMs }) };
            await expectFirstPageAsSpecified([store, fresh], all, filter, `${step}: ${search} ${startMs}`);
          }
      };
      await expectAsFresh('first');
      await store.append(at(70, 'alpenglow'));
      await expectAsFresh('an append');
      // Retention removes the oldest entries: a removal.
      clock.now = BASE_MS + 10 * DAY_MS + 30 * DAY_MS;
      const removedAt = clock.now;
      const policy = { agentWindow: 100, isResourceLive: () => false };
      expect(
        (await store.applyRetention({ ...policy, now: clock.now, maxAgeMs: 30 * DAY_MS - 10 * MINUTE }))
          .removed,
      ).toBe(10);
      await expectAsFresh('retention');
      // A rollback to before the retention brings the removed entries back with their ids, below the newest, and
      // removes nothing; through another connection.
      clock.now += 1_000;
      await store.flush();
      const database: Database = await fixture.openDatabase();
      try {
        expect(await rollBackAudit(database, removedAt - 1)).toEqual({ dropped: 0, returned: 10 });
      } finally {
        await database.close();
      }
      await expectAsFresh('entries returned below the newest');
      // A rollback that removes the entries written since and brings back none; then appends again.
      await store.append(at(80, 'alpaca gamma'));
      await expectAsFresh('an append before a rollback');
      await store.flush();
      const again: Database = await fixture.openDatabase();
      try {
        expect(await rollBackAudit(again, removedAt + 500)).toEqual({ dropped: 1, returned: 0 });
      } finally {
        await again.close();
      }
      await store.append(at(81, 'alpaca'));
      await expectAsFresh('a rollback and an append');
      // More entries appended than the memo adds up (an import), then single appends again.
      await store.importEntries(
        Array.from({ length: 2_100 }, (_, i) => at(100 + i / 100, i % 7 === 0 ? 'alpha gamma' : 'beta')),
        undefined,
        { tenant: 'acme' },
      );
      await expectAsFresh('many appended');
      await store.append(at(200, 'alpine'));
      await store.append(at(201, 'alpinist gamma'));
      await expectAsFresh('appends after many');
    },
  );

  // SQLite reads a search over a time range within the ids of the range's first and last entries, when no entries
  // out of time order lie across them (migration 0023 records where they may). Here a late entry (written after
  // the others, with an older time) lies across the ends of some ranges: read by ids alone, it would be counted in
  // a range it is not in, and missed in one it is in.
  it('counts and pages a search over a time range when ids do not follow time across its ends', async () => {
    const store = await fixture.openStore(() => BASE_MS + 40 * DAY_MS);
    const minute = 60_000;
    const at = (minutes: number, note: string) =>
      entryAt(BASE_MS + minutes * minute, { category: 'general', parameters: { note } });
    await store.importEntries(
      Array.from({ length: 100 }, (_, i) => at(i, i % 3 === 0 ? 'alpha beta' : 'alphabet')),
      undefined,
      { tenant: 'acme' },
    );
    await store.importEntries([at(50.5, 'alpha beta late')], undefined, { tenant: 'acme' });
    const all = await everything(store);
    const ranges: [startMinute: number | undefined, endMinute: number | undefined][] = [
      [60, undefined], // the late entry before the start, its id after the first entry's
      [40, 55], // the late entry inside, its id after the last entry's
      [51, 55],
      [5, 30], // far from it: the ids alone serve
      [undefined, 50],
      [60, 59], // empty
    ];
    for (const [startMinute, endMinute] of ranges)
      for (const search of ['alpha', 'ALPHA beta', 'alph bet']) {
        const filter = {
          tenant: 'acme',
          search,
          ...(startMinute !== undefined && { startMs: BASE_MS + startMinute * minute }),
          ...(endMinute !== undefined && { endMs: BASE_MS + endMinute * minute }),
        };
        const expected = referenceFilter(
          all.filter((entry) => holdsEvery(entry, search)),
          filter,
        ).map((entry) => entry.id);
        const label = `${search} ${startMinute}–${endMinute}`;
        await expectListedAs(store, filter, expected, label, [1, 2]);
      }
  });

  // PostgreSQL reads a search narrowed by tenant and time alone by one statement, its words' terms listed: up to 16
  // a term at a time (counted less those holding a term before), up to 64 as distinct entries, more the
  // transaction's way. Each way, alone and beside another word, over a range and not, in every tenant.
  it('counts and pages words that begin a few, dozens or more than 64 terms', async () => {
    const store = await fixture.openStore(() => BASE_MS + 40 * DAY_MS);
    const at = (i: number) =>
      entryAt(BASE_MS + i * (DAY_MS / 10), {
        category: 'general',
        parameters: {
          note: `batch${i % 24} batch${(i * 5) % 24} retry${i % 70}${i % 3 === 0 ? ' common' : ''}`,
        },
      });
    const entries = Array.from({ length: 80 }, (_, i) => at(i));
    await store.importEntries(
      entries.filter((_, i) => i % 4 !== 3),
      undefined,
      { tenant: 'acme' },
    );
    await store.importEntries(
      entries.filter((_, i) => i % 4 === 3),
      undefined,
      { tenant: 'globex' },
    );
    const all = await everything(store);
    const filters: AuditFilter[] = [
      { tenant: 'acme' },
      { tenant: 'acme', startMs: BASE_MS + DAY_MS + 1, endMs: BASE_MS + 6 * DAY_MS },
      { tenant: ALL_TENANTS, startMs: BASE_MS + 2 * DAY_MS },
    ];
    const searches = [
      'batch',
      'batch1',
      'retry',
      'batch1 common',
      'common batch',
      'retry batch2',
      'batch2 ret',
    ];
    for (const base of filters)
      for (const search of searches) {
        const filter = { ...base, search };
        const label = JSON.stringify(filter);
        const expected = referenceFilter(
          all.filter((entry) => holdsEvery(entry, search)),
          filter,
        )
          .filter((entry) => base.tenant === ALL_TENANTS || entry.tenant === base.tenant)
          .map((entry) => entry.id);
        expect(expected.length, label).toBeGreaterThan(0);
        await expectListedAs(store, filter, expected, label, [1, 2, 4]);
      }
  });
});

describe('the end of a prefix range', () => {
  it('is the least string after every string that begins with the prefix, in code-point order', () => {
    expect(after('order')).toBe('ordes');
    expect(after('z\u{10FFFF}')).toBe('{');
    expect(after('\u{10FFFF}')).toBeUndefined();
    expect(after('a\uD7FF')).toBe('a\uE000');
    expect(after('zürich')).toBe('zürici');
  });
});
