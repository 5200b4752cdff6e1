import type { Database, Tx } from '../../storage/database.js';
import type { MonitoringRecordTable } from '../../storage/schema.js';
import { DAY_MS, HOUR_MS } from '../../storage/time-buckets.js';
import { inChunks, removedAfter } from '../../storage/in-chunks.js';
import { rebuildDays, RollupDeltas, SUB_DAY_LEVELS } from './monitoring-rollups.js';

const CHUNK = 5_000;

/**
 * Takes API monitoring back to the moment `atMs` (a restore): records written after it go, records removed
 * after it come back, removals after it are forgotten, and the roll-ups of every hour that changed are counted
 * again from the records (then the days of those hours, from their hours). Returns how many records went and came back.
 */
export async function rollBackMonitoring(
  database: Database,
  atMs: number,
): Promise<{ dropped: number; returned: number }> {
  const hours = new Set<number>();
  const hourOf = (timeMs: number) => Math.floor(timeMs / HOUR_MS) * HOUR_MS;
  const dropped = await inChunks(database, CHUNK, async (trx) => {
    const rows = await trx
      .selectFrom('monitoring_records')
      .select(['id', 'time_ms'])
      .where('recorded_at', '>', atMs)
      .limit(CHUNK)
      .execute();
    for (const row of rows) hours.add(hourOf(row.time_ms));
    if (rows.length > 0) {
      const ids = rows.map((row) => row.id);
      await trx.deleteFrom('monitoring_records').where('id', 'in', ids).execute();
    }
    return rows.length;
  });
  const returned = await inChunks(database, CHUNK, async (trx) => {
    const rows: MonitoringRecordTable[] = await removedAfter(trx, 'monitoring_records_removed', atMs, CHUNK);
    for (const row of rows) hours.add(hourOf(row.time_ms));
    if (rows.length > 0) {
      await database.bulkInsert(trx, 'monitoring_records', rows);
      const ids = rows.map((row) => row.id);
      await trx.deleteFrom('monitoring_records_removed').where('id', 'in', ids).execute();
    }
    return rows.length;
  });
  await database.db.deleteFrom('monitoring_records_removed').where('removed_at', '>', atMs).execute();
  const days = new Set<number>();
  for (const hour of [...hours].sort((a, b) => a - b)) {
    await database.transaction((trx) => recountHour(database, trx, hour));
    days.add(Math.floor(hour / DAY_MS) * DAY_MS);
  }
  for (const day of days) {
    await database.transaction((trx) => rebuildDays(database, trx, day, day + DAY_MS));
  }
  return { dropped, returned };
}

/** The roll-ups of one hour (its 5-minute buckets and the hour), counted again from its records. */
async function recountHour(database: Database, trx: Tx, hour: number): Promise<void> {
  await trx
    .deleteFrom('monitoring_rollups')
    .where('granularity_ms', '<', DAY_MS)
    .where('bucket_ms', '>=', hour)
    .where('bucket_ms', '<', hour + HOUR_MS)
    .execute();
  const records = await trx
    .selectFrom('monitoring_records')
    .select(['time_ms', 'status', 'duration_ms', 'api_id', 'agent_group_id'])
    .where('time_ms', '>=', hour)
    .where('time_ms', '<', hour + HOUR_MS)
    .execute();
  const deltas = new RollupDeltas(SUB_DAY_LEVELS);
  for (const record of records) {
    deltas.add({
      timeMs: record.time_ms,
      status: record.status,
      durationMs: record.duration_ms,
      ...(record.api_id !== null ? { apiId: record.api_id } : {}),
      agentGroupId: record.agent_group_id,
    });
  }
  await deltas.apply(database, trx);
}
