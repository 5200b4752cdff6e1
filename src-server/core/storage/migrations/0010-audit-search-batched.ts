import { sql, type Kysely } from 'kysely';
import type { EngineKind } from '../engine-kind.js';

/**
 * SQLite: the words `audit_search` indexes for an entry row (the values of its parameters), as an expression over
 * the row's `entry` column: what migration 0007's trigger inserted, now inserted by the writers themselves.
 */
export const SEARCH_DOCUMENT_SQL = `(select group_concat(atom, ' ') from json_tree(entry, '$.parameters') where atom is not null)`;

/**
 * SQLite: no more trigger filling `audit_search` on insert. A table with an insert trigger makes SQLite keep a
 * statement journal for every INSERT into it (the original of every page the row touches, written to a temporary
 * file before the row is), and FTS5 writes its pending terms out at each trigger statement: an import of 20,000
 * entries made 430,000 writes instead of 12,000 and took 37 s instead of 0.65 s (the same rows replayed into
 * the 0008 schema with and without the trigger, under strace). The writers now index the rows they insert in one
 * `INSERT … SELECT` per batch (`core/audit/sql/audit-search-index.ts`; a restore's differential in
 * `core/backup/sqlite-copy.ts`). The delete trigger stays (a delete is one statement for many rows).
 * PostgreSQL: nothing to change (a generated column).
 */
export function auditSearchBatched(engine: EngineKind) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (engine !== 'sqlite') return;
      await sql.raw('drop trigger audit_search_insert').execute(db);
    },
  };
}
