import { sql, type Kysely } from 'kysely';
import type { EngineKind } from '../engine-kind.js';

/**
 * PostgreSQL: how many entries of a tenant hold each term (`audit_term_counts`), kept by the same triggers as
 * `audit_terms` (0012) in the same statement's transaction, so a count never disagrees with the terms. A search's
 * count over the whole trail then reads one row per term instead of counting the term's index entries: over 1M
 * entries a common word ("agent", 203,619 entries) took 55–150 ms to count that way. The counts also say which of a
 * search's words has the fewest entries, so the rarest drives (`resolveTerms`).
 * Every trigger takes the count rows it changes in one order (tenant, then term, bytewise): inserts write them
 * sorted, removals and updates lock them sorted before they change them, so two writers (an instance's appends
 * beside another's retention) wait for each other instead of deadlocking.
 * SQLite: nothing (its count comes from FTS5).
 */
const POSTGRES_TERM_COUNTS = [
  `create table audit_term_counts (
     tenant text not null,
     term text collate "C" not null,
     n bigint not null,
     constraint audit_term_counts_pk primary key (tenant, term))`,
  `insert into audit_term_counts (tenant, term, n)
     select tenant, term, count(*) from audit_terms group by tenant, term`,
  `create or replace function audit_terms_insert() returns trigger language plpgsql as $$
   begin
     with terms as materialized (
       select n.tenant, t.term, n.time_ms, n.id
       from inserted n, unnest(tsvector_to_array(n.search_document)) as t(term)),
     added as (insert into audit_terms (tenant, term, time_ms, entry_id) select * from terms)
     insert into audit_term_counts as c (tenant, term, n)
       select tenant, term, count(*) from terms group by tenant, term
       order by tenant collate "C", term collate "C"
       on conflict (tenant, term) do update set n = c.n + excluded.n;
     return null;
   end $$`,
  `create or replace function audit_terms_delete() returns trigger language plpgsql as $$
   begin
     delete from audit_terms a
       using deleted o, unnest(tsvector_to_array(o.search_document)) as t(term)
       where a.tenant = o.tenant and a.term = t.term and a.time_ms = o.time_ms and a.entry_id = o.id;
     perform 1 from audit_term_counts c
       where (c.tenant, c.term) in (
         select o.tenant, t.term from deleted o, unnest(tsvector_to_array(o.search_document)) as t(term))
       order by c.tenant collate "C", c.term collate "C"
       for update;
     update audit_term_counts c set n = c.n - g.n
       from (select o.tenant, t.term, count(*) as n
             from deleted o, unnest(tsvector_to_array(o.search_document)) as t(term)
             group by o.tenant, t.term) as g
       where c.tenant = g.tenant and c.term = g.term;
     delete from audit_term_counts c
       using (select distinct o.tenant, t.term
              from deleted o, unnest(tsvector_to_array(o.search_document)) as t(term)) as g
       where c.tenant = g.tenant and c.term = g.term and c.n <= 0;
     return null;
   end $$`,
  `create or replace function audit_terms_update() returns trigger language plpgsql as $$
   begin
     delete from audit_terms a
       using unnest(tsvector_to_array(old.search_document)) as t(term)
       where a.tenant = old.tenant and a.term = t.term and a.time_ms = old.time_ms and a.entry_id = old.id;
     perform 1 from audit_term_counts c
       where (c.tenant = old.tenant and c.term = any (tsvector_to_array(old.search_document)))
          or (c.tenant = new.tenant and c.term = any (tsvector_to_array(new.search_document)))
       order by c.tenant collate "C", c.term collate "C"
       for update;
     update audit_term_counts c set n = c.n - 1
       from unnest(tsvector_to_array(old.search_document)) as t(term)
       where c.tenant = old.tenant and c.term = t.term;
     delete from audit_term_counts c
       using unnest(tsvector_to_array(old.search_document)) as t(term)
       where c.tenant = old.tenant and c.term = t.term and c.n <= 0;
     insert into audit_terms (tenant, term, time_ms, entry_id)
       select new.tenant, t.term, new.time_ms, new.id
       from unnest(tsvector_to_array(new.search_document)) as t(term);
     insert into audit_term_counts as c (tenant, term, n)
       select new.tenant, t.term, 1 from unnest(tsvector_to_array(new.search_document)) as t(term)
       order by t.term collate "C"
       on conflict (tenant, term) do update set n = c.n + 1;
     return null;
   end $$`,
  `create or replace function audit_terms_truncate() returns trigger language plpgsql as $$
   begin
     truncate audit_terms, audit_term_counts;
     return null;
   end $$`,
];

export function termCounts(engine: EngineKind) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (engine !== 'postgres') return;
      for (const statement of POSTGRES_TERM_COUNTS) await sql.raw(statement).execute(db);
    },
  };
}
