import type { Selectable } from 'kysely';
import type { Database, Tx } from './database.js';
import type { GatehouseSchema } from './schema.js';

/**
 * Runs `chunk` in transactions of its own until one handles fewer than `size` rows (the work of a restore's
 * roll-back, which must not hold one transaction over the whole trail). Returns how many rows all handled.
 */
export async function inChunks(
  database: Database,
  size: number,
  chunk: (trx: Tx) => Promise<number>,
): Promise<number> {
  let total = 0;
  for (;;) {
    const done = await database.transaction(chunk);
    total += done;
    if (done < size) return total;
  }
}

type RemovedTable = 'audit_entries_removed' | 'monitoring_records_removed';
type Kept<T extends RemovedTable> = Omit<Selectable<GatehouseSchema[T]>, 'removed_at'>;

/**
 * For a roll-back to `atMs`: the next `limit` rows (by id) that existed at that moment and were removed after
 * it, as they were before their removal.
 */
export async function removedAfter<T extends RemovedTable>(
  trx: Tx,
  table: T,
  atMs: number,
  limit: number,
): Promise<Kept<T>[]> {
  // Widened on purpose: Kysely resolves the columns of one known table, not of a type parameter.
  const source: RemovedTable = table;
  const removed = (await trx
    .selectFrom(source)
    .selectAll()
    .where('removed_at', '>', atMs)
    .where('recorded_at', '<=', atMs)
    .orderBy('id')
    .limit(limit)
    .execute()) as Record<string, unknown>[];
  return removed.map(({ removed_at: _removedAt, ...row }) => row) as unknown as Kept<T>[];
}
