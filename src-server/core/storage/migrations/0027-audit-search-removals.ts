import { sql, type Kysely } from 'kysely';
import type { EngineKind } from '../engine-kind.js';

/**
 * SQLite: how many entries have ever been removed from the trail (`audit_search_removals.n`), counted by the trigger
 * that removes their full-text documents. A connection's search memo (`core/audit/sql/audit-search-memo.ts`) keeps
 * what the index answered up to an id and adds what was appended since; a removal (retention, an import's
 * rollback) is what it can't add up, and this counter is how it knows one happened, whichever connection or
 * process made it. A row update per removed entry, beside the document's delete the trigger already makes;
 * nothing on insert. PostgreSQL: nothing (its search reads `audit_terms`).
 */
const SQLITE_REMOVALS = [
  `create table audit_search_removals (n integer not null)`,
  `insert into audit_search_removals (n) values (0)`,
  `drop trigger audit_search_delete`,
  `create trigger audit_search_delete after delete on audit_entries begin
     delete from audit_search where rowid = old.id;
     update audit_search_removals set n = n + 1;
   end`,
];

export function auditSearchRemovals(engine: EngineKind) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (engine !== 'sqlite') return;
      for (const statement of SQLITE_REMOVALS) await sql.raw(statement).execute(db);
    },
  };
}
