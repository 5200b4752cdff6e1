import { sql, type Kysely } from 'kysely';
import type { GatehouseSchema } from './schema.js';

/**
 * Reserves `count` ids of a sequence and returns the first. Inside a transaction, the sequence's row stays locked
 * until it ends, so on PostgreSQL concurrent writers (of several instances) commit in id order. A function of its
 * own: the monitoring writer thread reserves on a connection of its own (monitoring-write-worker.ts).
 */
export async function reserveIds(
  trx: Kysely<GatehouseSchema>,
  sequence: string,
  count: number,
): Promise<number> {
  // One statement whether or not the sequence exists yet, so two first writers can't both create it.
  const row = await trx
    .insertInto('sequences')
    .values({ name: sequence, value: count })
    .onConflict((conflict) =>
      conflict.column('name').doUpdateSet({ value: sql<number>`sequences.value + excluded.value` }),
    )
    .returning('value')
    .executeTakeFirstOrThrow();
  return row.value - count + 1;
}
