import { sql, type Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rollBackAudit } from '../../../src-server/core/audit/sql/audit-rollback.js';
import type { Database } from '../../../src-server/core/storage/database.js';
import { auditHourCounts } from '../../../src-server/core/storage/migrations/0011-listshapes-hour-counts.js';
import { timelineHourSplits } from '../../../src-server/core/storage/migrations/0015-timeline-hour-splits.js';
import { ENGINES } from '../../helpers/test-database.js';
import { BASE_MS, DAY_MS, entryAt, referenceFilter, StoreFixture } from './helpers.js';

const HOUR_MS = 3_600_000;

/** Three actions and four users in turn (names spelled two ways), so each hour holds several of either. */
function named(k: number) {
  return {
    actionName: ['Process.Deploy', 'Api.Create', 'API.create'][k % 3]!,
    userName: ['alice', 'bob', 'Carol', 'dan'][k % 4]!,
  };
}

/** The per-hour counts as stored (all entries, per action, per user), and as the rows say they should be. */
async function hourCounts(database: Database) {
  const hour = sql<number>`time_ms / ${sql.lit(HOUR_MS)}`;
  const stored = [];
  const fromRows = [];
  for (const [table, key] of [
    ['audit_hour_counts', undefined],
    ['audit_action_hour_counts', 'action_key'],
    ['audit_user_hour_counts', 'user_key'],
  ] as const) {
    const name = key === undefined ? sql<string>`''` : sql.ref<string>(key);
    stored.push(
      ...(await database.db
        .selectFrom(table)
        .select([sql.lit(table).as('table'), 'tenant', 'hour', name.as('name'), 'n'])
        .execute()),
    );
    fromRows.push(
      ...(await database.db
        .selectFrom('audit_entries')
        .select([
          sql.lit(table).as('table'),
          'tenant',
          hour.as('hour'),
          name.as('name'),
          (eb) => eb.fn.countAll<number>().as('n'),
        ])
        .groupBy(key === undefined ? ['tenant', hour] : ['tenant', hour, sql.ref(key)])
        .execute()),
    );
  }
  const order = (a: HourCount, b: HourCount) =>
    a.table.localeCompare(b.table) ||
    a.tenant.localeCompare(b.tenant) ||
    a.hour - b.hour ||
    a.name.localeCompare(b.name);
  return { stored: stored.sort(order), fromRows: fromRows.sort(order) };
}

interface HourCount {
  table: string;
  tenant: string;
  hour: number;
  name: string;
}

describe.each(ENGINES)('per-hour counts (all, per action, per user) on %s', (engine) => {
  let fixture: StoreFixture;
  beforeEach(async () => {
    fixture = await StoreFixture.create(engine);
  });
  afterEach(async () => {
    await fixture.dispose();
  });

  it('follow appends, imports, retention and a rollback, and answer ranges that start and end inside hours', async () => {
    let now = BASE_MS + 3 * DAY_MS;
    const store = await fixture.openStore(() => now);
    // Entries every 37 minutes over two days: hours with one entry, with two, and without any.
    const entries = Array.from({ length: 80 }, (_, k) => entryAt(BASE_MS + k * 37 * 60_000, named(k)));
    for (const entry of entries.slice(0, 30)) await store.append(entry);
    await store.importEntries(entries.slice(30));
    await store.importEntries(entries.slice(0, 10), undefined, { tenant: 'acme' });
    const database = await fixture.openDatabase();
    try {
      let counts = await hourCounts(database);
      expect(counts.stored.length).toBeGreaterThan(20);
      expect(counts.stored).toEqual(counts.fromRows);

      const all = (await store.query({ pageNumber: 1, pageSize: 1000 })).items;
      for (const [startMs, endMs] of [
        [BASE_MS + 17 * 60_000, BASE_MS + DAY_MS + 5 * HOUR_MS + 1],
        [BASE_MS + 2 * HOUR_MS + 1, BASE_MS + 3 * HOUR_MS - 1],
        [BASE_MS + 23 * HOUR_MS + 59 * 60_000, BASE_MS + 26 * HOUR_MS],
        [BASE_MS + 5 * HOUR_MS, BASE_MS + 9 * HOUR_MS],
      ] as const) {
        const expected = referenceFilter(all, { startMs, endMs });
        for (const pageNumber of [1, 2, 3]) {
          const page = await store.query({ startMs, endMs, pageNumber, pageSize: 4 });
          expect(page.totalCount).toBe(expected.length);
          expect(page.items.map((e) => e.id)).toEqual(
            expected.slice((pageNumber - 1) * 4, pageNumber * 4).map((e) => e.id),
          );
        }
      }

      // Retention removes the older half (general entries older than a day and a half before `now`).
      now = BASE_MS + 3 * DAY_MS;
      const { removed } = await store.applyRetention({
        now,
        maxAgeMs: 2 * DAY_MS,
        agentWindow: 1000,
        isResourceLive: () => false,
      });
      expect(removed).toBeGreaterThan(0);
      counts = await hourCounts(database);
      expect(counts.stored).toEqual(counts.fromRows);

      // A restore to a moment before some entries were written takes them (and their counts) back out.
      now = BASE_MS + 4 * DAY_MS;
      await store.append(entryAt(BASE_MS + DAY_MS + 30 * 60_000));
      await store.flush();
      await rollBackAudit(database, BASE_MS + 3 * DAY_MS + 1);
      counts = await hourCounts(database);
      expect(counts.stored).toEqual(counts.fromRows);
    } finally {
      await database.close();
    }
  });

  it('per action and per user are filled from the existing rows by migration 0015', async () => {
    const store = await fixture.openStore(() => BASE_MS + 3 * DAY_MS);
    await store.importEntries(
      Array.from({ length: 50 }, (_, k) => entryAt(BASE_MS + k * 53 * 60_000, named(k))),
    );
    await store.importEntries(
      Array.from({ length: 5 }, (_, k) => entryAt(BASE_MS + k * 53 * 60_000, named(k))),
      undefined,
      {
        tenant: 'acme',
      },
    );
    await fixture.closeStore(store);
    const reopened = await fixture.openDatabase();
    try {
      await reopened.db.schema.dropTable('audit_action_hour_counts').execute();
      await reopened.db.schema.dropTable('audit_user_hour_counts').execute();
      await timelineHourSplits().up(reopened.db as unknown as Kysely<unknown>);
      const counts = await hourCounts(reopened);
      expect(counts.stored.filter((row) => row.table === 'audit_user_hour_counts').length).toBeGreaterThan(
        30,
      );
      expect(counts.stored).toEqual(counts.fromRows);
    } finally {
      await reopened.close();
    }
  });

  it('are filled from the existing rows by migration 0011', async () => {
    // A data dir as 0010 left it: entries and no table; then 0011's step, run as the migrator runs it (later
    // migrations stay applied, so the step is run directly rather than by forgetting its record).
    const store = await fixture.openStore(() => BASE_MS + 3 * DAY_MS);
    await store.importEntries(
      Array.from({ length: 50 }, (_, k) => entryAt(BASE_MS + k * 53 * 60_000, named(k))),
    );
    await fixture.closeStore(store);
    const reopened = await fixture.openDatabase();
    try {
      await reopened.db.schema.dropTable('audit_hour_counts').execute();
      await auditHourCounts().up(reopened.db as unknown as Kysely<unknown>);
      const counts = await hourCounts(reopened);
      expect(counts.stored.reduce((sum, row) => sum + row.n, 0)).toBe(150);
      expect(counts.stored).toEqual(counts.fromRows);
    } finally {
      await reopened.close();
    }
  });
});
