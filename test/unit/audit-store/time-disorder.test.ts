import fc from 'fast-check';
import { sql, type Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../../src-server/core/storage/database.js';
import { auditTimeDisorder } from '../../../src-server/core/storage/migrations/0023-audit-time-disorder.js';
import { BASE_MS, entryAt, StoreFixture } from './helpers.js';

const MINUTE_MS = 60_000;

/**
 * The pairs of entries out of time order (the lower id the later time) that no stretch of `audit_time_disorder`
 * holds: a search over a time range trusts the ids of its ends only where there are none (`searchIdWindow`).
 */
async function uncoveredInversions(database: Database) {
  const { rows } = await sql<{ early_id: number; late_id: number }>`
    select a.id as early_id, b.id as late_id from audit_entries a join audit_entries b
      on a.id < b.id and a.time_ms > b.time_ms
    where not exists (select 1 from audit_time_disorder d where d.lo_ms <= b.time_ms and d.hi_ms >= a.time_ms)`.execute(
    database.db,
  );
  return rows;
}

async function inversionCount(database: Database) {
  const { rows } = await sql<{ n: number }>`select count(*) as n from audit_entries a join audit_entries b
    on a.id < b.id and a.time_ms > b.time_ms`.execute(database.db);
  return rows[0]!.n;
}

describe('the stretches of entries out of time order on sqlite (migration 0023)', () => {
  let fixture: StoreFixture;
  beforeEach(async () => {
    fixture = await StoreFixture.create('sqlite');
  });
  afterEach(async () => {
    await fixture.dispose();
  });

  it('hold every inverted pair that imports in any order write', async () => {
    const batches = fc.array(fc.array(fc.integer({ min: 0, max: 600 }), { minLength: 1, maxLength: 12 }), {
      minLength: 1,
      maxLength: 6,
    });
    await fc.assert(
      fc.asyncProperty(batches, fc.boolean(), async (minutesOfBatches, appendToo) => {
        await fixture.clear();
        const database = await fixture.openDatabase();
        try {
          await sql`delete from audit_time_disorder`.execute(database.db);
        } finally {
          await database.close();
        }
        const store = await fixture.openStore(() => BASE_MS + 2 * 86_400_000);
        for (const minutes of minutesOfBatches) {
          await store.importEntries(minutes.map((m) => entryAt(BASE_MS + m * MINUTE_MS)));
          if (appendToo) await store.append(entryAt(BASE_MS + 2 * 86_400_000));
        }
        await fixture.closeStore(store);
        const reopened = await fixture.openDatabase();
        try {
          expect(await uncoveredInversions(reopened)).toEqual([]);
        } finally {
          await reopened.close();
        }
      }),
      { numRuns: 20 },
    );
  }, 120_000);

  it('are found in a trail written before the migration', async () => {
    const store = await fixture.openStore(() => BASE_MS + 2 * 86_400_000);
    await store.importEntries(Array.from({ length: 40 }, (_, k) => entryAt(BASE_MS + (100 + k) * MINUTE_MS)));
    await store.importEntries([entryAt(BASE_MS + 120.5 * MINUTE_MS), entryAt(BASE_MS + 5 * MINUTE_MS)]);
    await store.importEntries(Array.from({ length: 10 }, (_, k) => entryAt(BASE_MS + (300 + k) * MINUTE_MS)));
    await store.importEntries([entryAt(BASE_MS + 200 * MINUTE_MS)]);
    await fixture.closeStore(store);
    const database = await fixture.openDatabase();
    try {
      // The trail as 0022 left it: no table, no triggers; then 0023's step as the migrator runs it.
      await sql`drop trigger audit_time_disorder_late`.execute(database.db);
      await sql`drop trigger audit_time_disorder_low_id`.execute(database.db);
      await sql`drop table audit_time_disorder`.execute(database.db);
      await auditTimeDisorder('sqlite').up(database.db as unknown as Kysely<unknown>);
      expect(await inversionCount(database)).toBeGreaterThan(40);
      expect(await uncoveredInversions(database)).toEqual([]);
      const { rows } = await sql<{ n: number }>`select count(*) as n from audit_time_disorder`.execute(
        database.db,
      );
      expect(rows[0]!.n).toBeGreaterThan(0);
    } finally {
      await database.close();
    }
  });
});
