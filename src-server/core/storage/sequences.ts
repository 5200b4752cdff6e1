import { sql } from 'kysely';
import type { BulkWrites, Tx } from './bulk-writes.js';

/**
 * Reserves `count` ids of a sequence and returns the first. Inside a transaction, the sequence's row stays locked
 * until it ends, so on PostgreSQL concurrent writers (of several instances) commit in id order. A function of its
 * own: the monitoring writer thread reserves on a connection of its own (monitoring-write-worker.ts). Compiled once
 * (`runCompiled`): writers reserve per chunk of rows, and building the query cost more than running it.
 */
export async function reserveIds(
  writes: Pick<BulkWrites, 'runCompiled'>,
  trx: Tx,
  sequence: string,
  count: number,
): Promise<number> {
  // One statement whether or not the sequence exists yet, so two first writers can't both create it.
  const [row] = await writes.runCompiled(
    trx,
    'reserveIds',
    () =>
      trx
        .insertInto('sequences')
        .values({ name: sequence, value: count })
        .onConflict((conflict) =>
          conflict.column('name').doUpdateSet({ value: sql<number>`sequences.value + excluded.value` }),
        )
        .returning('value'),
    [sequence, count],
  );
  if (!row) throw new Error(`sequence ${sequence} returned no value`);
  return row.value - count + 1;
}
