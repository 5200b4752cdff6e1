import { sql, type Kysely } from 'kysely';
import type { EngineKind } from '../engine-kind.js';
import { fixPlannerStatistics } from './planner-statistics.js';

/**
 * Takes back the two indexes of 0013 whose keys arrive in random order, because the gateway paid for them on every
 * forwarded request: a record lands at a random leaf of an index on `path` (real paths carry ids) and of one on
 * `(upper(method), duration_ms, …)`, so a batch of a thousand records dirtied up to a thousand pages of each, past
 * SQLite's page cache, into the WAL and back at the checkpoint. Measured with bench:proxy's full route: 8–10 µs of
 * CPU per request (about 10 %) for the two.
 *
 * - The method index now runs in time order within a method, `(upper(method), time_ms, id, duration_ms)`: a record
 *   is appended at the end of its method's run, and a method with a minimum duration still counts from the index
 *   alone (the duration is read from it), and a page is read in the list's order without sorting.
 * - The path prefix filter reads the time range's records again (no index keeps random keys cheaply).
 * - The outcome index stays: its keys arrive in time order within an outcome, as cheap as the time index.
 */
export function monitoringWriteCost(engine: EngineKind) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex('monitoring_records_by_path').ifExists().execute();
      await db.schema.dropIndex('monitoring_records_by_method').ifExists().execute();
      // `id` before the duration: a page in the list's order (time, then id, newest first) is read without sorting.
      await sql`create index monitoring_records_by_method on monitoring_records (upper(method), time_ms, id, duration_ms)`.execute(
        db,
      );
      if (engine === 'sqlite')
        await fixPlannerStatistics(db, 'monitoring_records', MONITORING_RECORD_STATISTICS);
    },
  };
}

/**
 * The row counts SQLite's planner assumes for `monitoring_records` (see 0013: the shape of a million records, not
 * one data dir's numbers): tens of APIs, a few outcomes, instances and methods, times nearly unique.
 */
export const MONITORING_RECORD_STATISTICS: Readonly<Record<string, string>> = {
  monitoring_records_by_time: '1000000 1 1',
  monitoring_records_by_api: '1000000 25000 1 1',
  monitoring_records_by_instance: '1000000 500000 1 1',
  monitoring_records_by_outcome: '1000000 150000 1',
  monitoring_records_by_method: '1000000 200000 1 1 1',
};
