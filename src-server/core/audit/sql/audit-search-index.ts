import { sql } from 'kysely';
import type { Database, Tx } from '../../storage/database.js';
import type { AuditEntryTable } from '../../storage/schema.js';
import { SEARCH_DOCUMENT_SQL } from '../../storage/migrations/0010-audit-search-batched.js';

/**
 * Inserts entry rows in the caller's transaction. On SQLite their parameters' words then go into `audit_search` in
 * one statement for the whole batch (migration 0010 says why not a trigger); on PostgreSQL the generated column
 * does it.
 */
export async function insertEntryRows(
  database: Database,
  trx: Tx,
  rows: readonly AuditEntryTable[],
): Promise<void> {
  if (rows.length === 0) return;
  await database.bulkInsert(trx, 'audit_entries', rows);
  if (database.kind !== 'sqlite') return;
  await sql`insert into audit_search (rowid, document)
    select id, ${sql.raw(SEARCH_DOCUMENT_SQL)} from audit_entries
    where id in (select value from json_each(${idList(rows)}))`.execute(trx);
}

function idList(rows: readonly AuditEntryTable[]): string {
  let text = '[';
  for (let k = 0; k < rows.length; k++) text += k === 0 ? String(rows[k]!.id) : `,${rows[k]!.id}`;
  return `${text}]`;
}
