import { sql, type Kysely } from 'kysely';
import type { EngineKind } from '../engine-kind.js';

/**
 * PostgreSQL: the words of every entry's parameters (the lexemes of its `search_document`) as rows of
 * `audit_terms`, keyed `(tenant, term, time_ms, entry_id)`: a btree, so a search counts its matches with an
 * index-only scan and reads a page of them newest first from the index's end, where the GIN index under the
 * tsvector made PostgreSQL visit every match's heap block to count it (over 1M entries, p95 375 ms for one word)
 * and every match's row to sort a page. The terms are collated "C", so a word's matches (`word:*`, any term it
 * begins) are one range of the index. The GIN index goes: nothing reads it any more, and every import paid for it.
 *
 * Kept by triggers on `audit_entries`, so every writer keeps it (record, import, sync, retention, rollback of a
 * removal, history removal, and whatever a support engineer does in SQL): one statement per INSERT or DELETE
 * statement, reading its transition table; a row trigger for an update of the columns a term row repeats.
 * SQLite: nothing (FTS5, migrations 0007 and 0010).
 */
const POSTGRES_TERMS = [
  `create table audit_terms (
     tenant text not null,
     term text collate "C" not null,
     time_ms bigint not null,
     entry_id bigint not null)`,
  `insert into audit_terms (tenant, term, time_ms, entry_id)
     select e.tenant, t.term, e.time_ms, e.id
     from audit_entries e, unnest(tsvector_to_array(e.search_document)) as t(term)`,
  `alter table audit_terms add constraint audit_terms_pkey primary key (tenant, term, time_ms, entry_id)`,
  `drop index audit_entries_search`,
  `create function audit_terms_insert() returns trigger language plpgsql as $$
   begin
     insert into audit_terms (tenant, term, time_ms, entry_id)
       select n.tenant, t.term, n.time_ms, n.id
       from inserted n, unnest(tsvector_to_array(n.search_document)) as t(term);
     return null;
   end $$`,
  `create function audit_terms_delete() returns trigger language plpgsql as $$
   begin
     delete from audit_terms a
       using deleted o, unnest(tsvector_to_array(o.search_document)) as t(term)
       where a.tenant = o.tenant and a.term = t.term and a.time_ms = o.time_ms and a.entry_id = o.id;
     return null;
   end $$`,
  `create function audit_terms_update() returns trigger language plpgsql as $$
   begin
     delete from audit_terms a
       using unnest(tsvector_to_array(old.search_document)) as t(term)
       where a.tenant = old.tenant and a.term = t.term and a.time_ms = old.time_ms and a.entry_id = old.id;
     insert into audit_terms (tenant, term, time_ms, entry_id)
       select new.tenant, t.term, new.time_ms, new.id
       from unnest(tsvector_to_array(new.search_document)) as t(term);
     return null;
   end $$`,
  `create function audit_terms_truncate() returns trigger language plpgsql as $$
   begin
     truncate audit_terms;
     return null;
   end $$`,
  `create trigger audit_terms_insert after insert on audit_entries
     referencing new table as inserted for each statement execute function audit_terms_insert()`,
  `create trigger audit_terms_delete after delete on audit_entries
     referencing old table as deleted for each statement execute function audit_terms_delete()`,
  `create trigger audit_terms_update after update of tenant, time_ms, id, entry on audit_entries
     for each row when (old.tenant is distinct from new.tenant or old.time_ms is distinct from new.time_ms
       or old.id is distinct from new.id or old.entry is distinct from new.entry)
     execute function audit_terms_update()`,
  `create trigger audit_terms_truncate after truncate on audit_entries
     for each statement execute function audit_terms_truncate()`,
];

export function auditTerms(engine: EngineKind) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (engine !== 'postgres') return;
      for (const statement of POSTGRES_TERMS) await sql.raw(statement).execute(db);
    },
  };
}
