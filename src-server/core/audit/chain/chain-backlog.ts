import { sql } from 'kysely';
import type { Database } from '../../storage/database.js';
import type { Logger } from '../../logging/logger.js';
import { chainRows } from './chain-writes.js';

export const BACKLOG_KEY = 'audit.chain.backlog';
const BATCH = 5_000;
/** Rows per UPDATE statement: 3 parameters each, far below either engine's limit. */
const UPDATE_ROWS = 1_000;

/**
 * Chains the entries written before the chain existed (a data dir upgraded past migration 0006), in id order per
 * tenant, before the store takes new entries. Each batch commits on its own, so a stop resumes where it was; the
 * meta key `audit.chain.backlog` turns `done` at the end, after which an entry without a link is an insertion.
 * Progress is logged per batch when there is more than one.
 */
export async function chainBacklog(database: Database, logger: Logger): Promise<void> {
  if ((await backlogState(database)) !== 'pending') return;
  const counted = await database.db
    .selectFrom('audit_entries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('chain_seq', 'is', null)
    .executeTakeFirst();
  const total = counted?.n ?? 0;
  let chained = 0;
  if (total > BATCH) logger.info({ total }, 'chaining the audit entries recorded before tamper evidence');
  for (;;) {
    const done = await database.transaction(async (trx) => {
      await database.lockExclusively(trx, 'audit-chain-backlog');
      const rows = await trx
        .selectFrom('audit_entries')
        .select(['id', 'tenant', 'entry', 'chain_seq', 'chain_hash'])
        .where('chain_seq', 'is', null)
        .orderBy('id')
        .limit(BATCH)
        .execute();
      if (rows.length === 0) {
        await trx.updateTable('meta').set({ value: 'done' }).where('key', '=', BACKLOG_KEY).execute();
        return true;
      }
      await chainRows(database, trx, rows);
      // One UPDATE … FROM (VALUES …) per slice (both engines name the columns column1…), not one per row.
      for (let start = 0; start < rows.length; start += UPDATE_ROWS) {
        const values = sql.join(
          rows
            .slice(start, start + UPDATE_ROWS)
            .map(
              (row) => sql`(cast(${row.id} as bigint), cast(${row.chain_seq} as bigint), ${row.chain_hash})`,
            ),
        );
        await sql`update audit_entries set chain_seq = v.column2, chain_hash = v.column3
          from (values ${values}) as v where audit_entries.id = v.column1`.execute(trx);
      }
      chained += rows.length;
      return false;
    });
    if (done) break;
    if (total > BATCH) logger.info({ chained, total }, 'chaining audit entries');
  }
  if (chained > 0) logger.info({ chained }, 'audit entries chained');
}

export async function backlogState(database: Database): Promise<string | undefined> {
  const row = await database.db
    .selectFrom('meta')
    .select('value')
    .where('key', '=', BACKLOG_KEY)
    .executeTakeFirst();
  return row?.value;
}
