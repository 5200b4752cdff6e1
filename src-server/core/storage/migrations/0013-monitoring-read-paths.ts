import { sql, type Kysely } from 'kysely';
import type { EngineKind } from '../engine-kind.js';
import { fixPlannerStatistics } from './planner-statistics.js';

const HOUR = 3_600_000;
const DAY = 86_400_000;
/** The dimensions of the daily roll-ups (see `monitoring/sql/monitoring-rollups.ts`, `ROLLUP_LEVELS`). */
const DAILY_DIMENSIONS = ['', 'agentGroup'];

/**
 * API monitoring's read paths at a million records:
 *
 * - **Daily roll-ups**, summed here from the hourly ones already stored (from now on the recorder merges them in
 *   each batch): a 60-day summary read 1,440 hourly roll-ups per status class, p95 81 ms at 1M records.
 * - Three indexes for the list filters that read every record of the range to count the matches: a path prefix
 *   (a range on `path`; byte order on PostgreSQL, `COLLATE "C"`, as SQLite's default compares), a method with a
 *   minimum duration (`upper(method)`, the filter's case-insensitive form, then the duration), and an outcome
 *   (in the list's order, so a deep page seeks instead of skipping). 0014 took the path and method ones back: their
 *   random keys cost the gateway too much per request.
 *
 * Self-contained on purpose (the histogram pairs are merged here, not with the monitoring code): a migration
 * must do tomorrow what it did today.
 */
export function monitoringReadPaths(engine: EngineKind) {
  const order = engine === 'sqlite' ? ['time_ms'] : ['time_ms', 'id'];
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await addDailyRollups(db);
      // Each ends in the list's order, so a page among the matches is sorted from the index alone.
      const tail = sql.raw(order.join(', '));
      const path = sql.raw(engine === 'postgres' ? 'path collate "C"' : 'path');
      await sql`create index monitoring_records_by_path on monitoring_records (${path}, ${tail})`.execute(db);
      await sql`create index monitoring_records_by_method on monitoring_records (upper(method), duration_ms, ${tail})`.execute(
        db,
      );
      await db.schema
        .createIndex('monitoring_records_by_outcome')
        .on('monitoring_records')
        .columns(['outcome', ...order])
        .execute();
      if (engine === 'sqlite')
        await fixPlannerStatistics(db, 'monitoring_records', MONITORING_RECORD_STATISTICS);
    },
  };
}

/**
 * The row counts SQLite's planner assumes for `monitoring_records` (as for `audit_entries`, migration 0009: the
 * shape of a million records, not one data dir's numbers): tens of APIs, a few outcomes, instances and methods,
 * paths and times nearly unique. Without them SQLite guesses 10 rows for any equality, and for all filters at once
 * it read the ~750,000 records of one outcome instead of the ~25,000 of one API.
 */
export const MONITORING_RECORD_STATISTICS: Readonly<Record<string, string>> = {
  monitoring_records_by_time: '1000000 1 1',
  monitoring_records_by_api: '1000000 25000 1 1',
  monitoring_records_by_instance: '1000000 500000 1 1',
  monitoring_records_by_outcome: '1000000 150000 1',
  monitoring_records_by_path: '1000000 5 1',
  monitoring_records_by_method: '1000000 200000 20 1',
};

interface RollupRow {
  granularity_ms: number;
  dimension: string;
  dimension_value: string;
  bucket_ms: number;
  status_class: number;
  n: number;
  duration_sum: number;
  duration_min: number;
  duration_max: number;
  bins: Uint8Array;
}
interface RollupSchema {
  monitoring_rollups: RollupRow;
}

async function addDailyRollups(db: Kysely<RollupSchema>): Promise<void> {
  const hours = await db
    .selectFrom('monitoring_rollups')
    .selectAll()
    .where('granularity_ms', '=', HOUR)
    .where('dimension', 'in', DAILY_DIMENSIONS)
    .execute();
  const days = new Map<string, { row: RollupRow; bins: Map<number, number> }>();
  for (const hour of hours) {
    const bucket = Math.floor(hour.bucket_ms / DAY) * DAY;
    const key = [hour.dimension, hour.dimension_value, bucket, hour.status_class].join('\u0000');
    let day = days.get(key);
    if (!day) {
      day = {
        row: {
          ...hour,
          granularity_ms: DAY,
          bucket_ms: bucket,
          n: 0,
          duration_sum: 0,
          duration_min: Number.POSITIVE_INFINITY,
          duration_max: Number.NEGATIVE_INFINITY,
        },
        bins: new Map(),
      };
      days.set(key, day);
    }
    day.row.n += hour.n;
    day.row.duration_sum += hour.duration_sum;
    day.row.duration_min = Math.min(day.row.duration_min, hour.duration_min);
    day.row.duration_max = Math.max(day.row.duration_max, hour.duration_max);
    // (bin u16, count u32) little endian, bins ascending.
    const view = Buffer.from(hour.bins.buffer, hour.bins.byteOffset, hour.bins.byteLength);
    for (let at = 0; at + 6 <= view.length; at += 6) {
      const bin = view.readUInt16LE(at);
      day.bins.set(bin, (day.bins.get(bin) ?? 0) + view.readUInt32LE(at + 2));
    }
  }
  const rows = [...days.values()].map(({ row, bins }) => {
    const pairs = [...bins].sort((a, b) => a[0] - b[0]);
    const encoded = Buffer.alloc(pairs.length * 6);
    pairs.forEach(([bin, count], k) => {
      encoded.writeUInt16LE(bin, k * 6);
      encoded.writeUInt32LE(count, k * 6 + 2);
    });
    return { ...row, bins: encoded };
  });
  for (let start = 0; start < rows.length; start += 500) {
    await db
      .insertInto('monitoring_rollups')
      .values(rows.slice(start, start + 500))
      .execute();
  }
}
