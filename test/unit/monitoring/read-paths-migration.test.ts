import { sql, type Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../../src-server/core/storage/database.js';
import { monitoringReadPaths } from '../../../src-server/core/storage/migrations/0013-monitoring-read-paths.js';
import { ENGINES } from '../../helpers/test-database.js';
import { BASE_MS, record, StoreFixture } from './helpers.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function dailyRollups(database: Database) {
  return database.db
    .selectFrom('monitoring_rollups')
    .selectAll()
    .where('granularity_ms', '=', DAY)
    .orderBy('dimension')
    .orderBy('dimension_value')
    .orderBy('bucket_ms')
    .orderBy('status_class')
    .execute();
}

describe.each(ENGINES)('migration %s on %s', (engine) => {
  let fixture: StoreFixture;
  beforeEach(async () => {
    fixture = await StoreFixture.create(engine);
  });
  afterEach(async () => {
    await fixture.dispose();
  });

  it('sums the daily roll-ups of a database written before it from its hourly ones', async () => {
    const store = await fixture.openStore();
    // Two and a half days, two agent groups, several statuses and durations per hour.
    const records = Array.from({ length: 60 * 4 }, (_, k) =>
      record({
        time: new Date(BASE_MS + Math.floor(k / 4) * HOUR + (k % 4) * 60_000).toISOString(),
        agentGroupId: k % 3 === 0 ? 'eu-west' : 'default',
        status: [200, 404, 503, 200][k % 4]!,
        durationMs: 1 + ((k * 37) % 500) / 4,
      }),
    );
    await store.append(records);
    const before = await store.summarize({
      filter: { startMs: BASE_MS, endMs: BASE_MS + 3 * DAY },
      intervalMs: DAY,
    });
    await fixture.closeStore(store);

    // The database as the release before 0013 wrote it: no daily roll-ups, none of the indexes 0013 creates (0014
    // took the path index back), then 0013's step run again.
    const database = await fixture.openDatabase();
    try {
      const written = await dailyRollups(database);
      expect(written.length).toBeGreaterThan(0);
      await database.db.deleteFrom('monitoring_rollups').where('granularity_ms', '=', DAY).execute();
      for (const index of ['by_method', 'by_outcome']) {
        await sql`drop index ${sql.ref(`monitoring_records_${index}`)}`.execute(database.db);
      }
      await monitoringReadPaths(engine).up(database.db as unknown as Kysely<unknown>);
      expect(await dailyRollups(database)).toEqual(written);
    } finally {
      await database.close();
    }
    const reopened = await fixture.openStore();
    expect(
      await reopened.summarize({ filter: { startMs: BASE_MS, endMs: BASE_MS + 3 * DAY }, intervalMs: DAY }),
    ).toEqual(before);
    expect(before.buckets.map((bucket) => bucket.count)).toEqual([96, 96, 48]);
  });
});
