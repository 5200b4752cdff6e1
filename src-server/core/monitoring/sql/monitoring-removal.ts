import { sql } from 'kysely';
import type { Database } from '../../storage/database.js';
import { HOUR_MS } from '../../storage/time-buckets.js';
import { rebuildDays } from './monitoring-rollups.js';
import { RECORD_COLUMNS } from './monitoring-rows.js';

const MOVE_CHUNK = 5_000;

/**
 * Retention: records of the whole hours before the cutoff move to `monitoring_records_removed` (stamped with the
 * time of the removal), and the roll-ups of those hours go. Whole hours, so the roll-ups of the hours that stay
 * still count exactly the records that stay; the daily roll-up of the cutoff's day is summed again from its
 * remaining hours. In transactions of a few thousand records.
 */
export async function removeRecordsBefore(
  database: Database,
  cutoffMs: number,
  removedAt: number,
  signal?: AbortSignal,
): Promise<number> {
  const cutoff = Math.floor(cutoffMs / HOUR_MS) * HOUR_MS;
  let removed = 0;
  while (!signal?.aborted) {
    const moved = await database.transaction(async (trx) => {
      const ids = (
        await trx
          .selectFrom('monitoring_records')
          .select('id')
          .where('time_ms', '<', cutoff)
          .orderBy('time_ms')
          .limit(MOVE_CHUNK)
          .execute()
      ).map((row) => row.id);
      if (ids.length === 0) return 0;
      await trx
        .insertInto('monitoring_records_removed')
        .columns([...RECORD_COLUMNS, 'capture', 'recorded_at', 'removed_at'])
        .expression(
          trx
            .selectFrom('monitoring_records')
            .select([...RECORD_COLUMNS, 'capture', 'recorded_at', sql.lit(removedAt).as('removed_at')])
            .where('id', 'in', ids),
        )
        .execute();
      await trx.deleteFrom('monitoring_records').where('id', 'in', ids).execute();
      return ids.length;
    });
    removed += moved;
    if (moved < MOVE_CHUNK) break;
  }
  // Stopped: the roll-ups before the cutoff still count what is left, and the next run trims them.
  if (signal?.aborted) return removed;
  await database.transaction(async (trx) => {
    await trx.deleteFrom('monitoring_rollups').where('bucket_ms', '<', cutoff).execute();
    // The day the cutoff falls in keeps its hours after the cutoff: summed again from them.
    await rebuildDays(database, trx, cutoff, cutoff);
  });
  return removed;
}

/** Removed records older than the restore window are gone for good. */
export async function purgeRemovedRecords(database: Database, before: number): Promise<void> {
  await database.db.deleteFrom('monitoring_records_removed').where('removed_at', '<', before).execute();
}
