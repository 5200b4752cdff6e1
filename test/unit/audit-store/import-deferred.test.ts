import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NewAuditEntry } from '../../../src-server/core/audit/audit-entry.js';
import type { ImportBatch } from '../../../src-server/core/audit/import-batch.js';
import { prepareImportBatch } from '../../../src-server/core/audit/sql/audit-import-entry.js';
import { importPreparedEntries } from '../../../src-server/core/audit/sql/audit-import.js';
import type { Database } from '../../../src-server/core/storage/database.js';
import { BASE_MS, entryAt, StoreFixture } from './helpers.js';

const MINUTE_MS = 60_000;
/** Past two of the import's chunks (10,000 entries): the indexes are deferred after the first. */
const ENTRIES = 25_000;

/** Entries a minute apart, but each `every`th (from `from` on) goes back `back` minutes: out of time order. */
function trail(from: number, count: number, every: number, back: number): NewAuditEntry[] {
  return Array.from({ length: count }, (_, k) =>
    entryAt(BASE_MS + (from + k - (k % every === every - 1 ? back : 0)) * MINUTE_MS, {
      userName: `user-${k % 7}`,
      parameters: { n: k },
    }),
  );
}

async function* batches(entries: readonly NewAuditEntry[]): AsyncGenerator<ImportBatch> {
  for (let start = 0; start < entries.length; start += 1_000)
    yield prepareImportBatch(entries.slice(start, start + 1_000));
  await Promise.resolve();
}

const COUNT_TABLES = [
  'audit_day_counts',
  'audit_hour_counts',
  'audit_action_day_counts',
  'audit_user_day_counts',
  'audit_action_user_day_counts',
  'audit_action_hour_counts',
  'audit_user_hour_counts',
];

/** What a deferral must leave as a normal import does: the disorder rows, the schema, the chain and the counts. */
async function outcome(database: Database) {
  const rows = async (query: string) => (await sql.raw(query).execute(database.db)).rows;
  return {
    disorder: await rows('select lo_ms, hi_ms from audit_time_disorder order by rowid'),
    schema: await rows(`select type, name, sql from sqlite_master
      where tbl_name in ('audit_entries', 'audit_resources') or tbl_name like 'audit\\_%counts' escape '\\'
      order by name`),
    statistics: await rows('select tbl, idx, stat from sqlite_stat1 order by tbl, idx'),
    entries: await rows(
      'select id, time_ms, chain_seq, chain_hash, content_hash from audit_entries order by id',
    ),
    counts: await Promise.all(
      COUNT_TABLES.map(async (table) =>
        (await rows(`select * from ${table}`)).map((row) => JSON.stringify(row)).sort(),
      ),
    ),
    deferred: await rows(`select value from meta where key = 'deferred-indexes'`),
  };
}

describe('an offline import that defers indexes and the time-disorder triggers (sqlite)', () => {
  let normal: StoreFixture;
  let offline: StoreFixture;
  beforeEach(async () => {
    normal = await StoreFixture.create('sqlite');
    offline = await StoreFixture.create('sqlite');
  });
  afterEach(async () => {
    await normal.dispose();
    await offline.dispose();
  });

  it.each([
    ['in time order', 1, 0],
    ['with entries from before the trail began', 97, 400],
    ['with entries out of order by a little', 13, 3],
  ])(
    'writes what a normal import writes, %s',
    async (_, every, back) => {
      // A trail already out of order, then an import past the deferral threshold.
      const before = [...trail(100, 50, 9, 30), ...trail(60, 20, 1, 0)];
      const imported = trail(200, ENTRIES, every, back);
      const outcomes = [];
      let indexed = false;
      for (const [fixture, offlineImport] of [
        [normal, false],
        [offline, true],
      ] as const) {
        const database = await fixture.openDatabase();
        try {
          const now = () => BASE_MS + 40 * 86_400_000;
          await importPreparedEntries(database, batches(before), undefined, now, 'gatehouse');
          const onProgress = (progress: { indexing?: boolean }) => (indexed ||= progress.indexing === true);
          await importPreparedEntries(database, batches(imported), onProgress, now, 'gatehouse', {
            offline: offlineImport,
            deferAfter: 1,
          });
          outcomes.push(await outcome(database));
        } finally {
          await database.close();
        }
      }
      // Only the offline import defers (and then reports the indexing).
      expect(indexed).toBe(true);
      const [expected, actual] = outcomes;
      expect(actual).toEqual(expected);
      expect(expected!.disorder.length).toBeGreaterThan(0);
      expect(expected!.schema.map((row) => (row as { name: string }).name)).toEqual(
        expect.arrayContaining([
          'audit_entries_by_time',
          'audit_entries_by_chain',
          'audit_time_disorder_late',
          'audit_user_hour_counts_by_name',
          'audit_action_day_counts_names',
        ]),
      );
    },
    120_000,
  );
});
