import { sql, type Kysely } from 'kysely';
import type { EngineKind } from '../engine-kind.js';

/**
 * PostgreSQL: `audit_term_counts` keyed `(tenant, term, lcp)`, where a term's `lcp` in an entry is the length (in
 * code points) of the prefix it shares with the entry's previous term in code-point order (0 for its first). Of an
 * entry's terms that begin a word `p`, exactly one has `lcp < length(p)` (the one before it does not begin `p`),
 * so the entries holding any term that begins `p` are `sum(n)` over `[p, p⁺)` with `lcp < length(p)`: a count of
 * count rows, where a word beginning several terms ("proc": proc, process, processes over 1M entries) counted the
 * later terms' entries less those holding an earlier one, an index probe each (37k probes, ~150 ms).
 *
 * The terms of an entry are only ever added or removed together (0012's triggers), so each term's lcp is a function
 * of the entry's document alone, the same on insert and on delete. Same lock order as 0022.
 * SQLite: nothing (its count comes from FTS5).
 */
/** Each term of the documents of `rows` (an entry's rows: tenant, time_ms, id, search_document) with its lcp. */
const termsWithLcp = (rows: string) => `select o.tenant, t.term, o.time_ms, o.id,
       coalesce(audit_common_prefix_length(t.term,
         lag(t.term) over (partition by o.id order by t.term collate "C")), 0) as lcp
     from ${rows} o, unnest(tsvector_to_array(o.search_document)) as t(term)`;

/** The same for the one entry of a row trigger (`old` or `new`). */
const rowTermsWithLcp = (row: string) => `select t.term,
       coalesce(audit_common_prefix_length(t.term, lag(t.term) over (order by t.term collate "C")), 0) as lcp
     from unnest(tsvector_to_array(${row}.search_document)) as t(term)`;

const POSTGRES_TERM_PREFIX_COUNTS = [
  // PL/pgSQL: as a SQL function (a subquery over generate_series) it took ~7x the time per term.
  `create function audit_common_prefix_length(a text, b text) returns integer
     language plpgsql immutable strict parallel safe as $$
     declare
       k integer := 1;
       shorter integer := least(length(a), length(b));
     begin
       while k <= shorter and substr(a, k, 1) = substr(b, k, 1) loop
         k := k + 1;
       end loop;
       return k - 1;
     end $$`,
  `drop table audit_term_counts`,
  `create table audit_term_counts (
     tenant text not null,
     term text collate "C" not null,
     lcp integer not null,
     n bigint not null,
     constraint audit_term_counts_pk primary key (tenant, term, lcp))`,
  `insert into audit_term_counts (tenant, term, lcp, n)
     select tenant, term, lcp, count(*) from (
       select tenant, term,
         coalesce(audit_common_prefix_length(term, lag(term) over (partition by entry_id order by term)), 0) as lcp
       from audit_terms) as t
     group by tenant, term, lcp`,
  `create or replace function audit_terms_insert() returns trigger language plpgsql as $$
   begin
     with terms as materialized (${termsWithLcp('inserted')}),
     added as (insert into audit_terms (tenant, term, time_ms, entry_id) select tenant, term, time_ms, id from terms)
     insert into audit_term_counts as c (tenant, term, lcp, n)
       select tenant, term, lcp, count(*) from terms group by tenant, term, lcp
       order by tenant collate "C", term collate "C", lcp
       on conflict (tenant, term, lcp) do update set n = c.n + excluded.n;
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
       order by c.tenant collate "C", c.term collate "C", c.lcp
       for update;
     update audit_term_counts c set n = c.n - g.n
       from (select tenant, term, lcp, count(*) as n from (${termsWithLcp('deleted')}) as t
             group by tenant, term, lcp) as g
       where c.tenant = g.tenant and c.term = g.term and c.lcp = g.lcp;
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
       order by c.tenant collate "C", c.term collate "C", c.lcp
       for update;
     update audit_term_counts c set n = c.n - 1
       from (${rowTermsWithLcp('old')}) as t
       where c.tenant = old.tenant and c.term = t.term and c.lcp = t.lcp;
     delete from audit_term_counts c
       using unnest(tsvector_to_array(old.search_document)) as t(term)
       where c.tenant = old.tenant and c.term = t.term and c.n <= 0;
     insert into audit_terms (tenant, term, time_ms, entry_id)
       select new.tenant, t.term, new.time_ms, new.id
       from unnest(tsvector_to_array(new.search_document)) as t(term);
     insert into audit_term_counts as c (tenant, term, lcp, n)
       select new.tenant, t.term, t.lcp, 1 from (${rowTermsWithLcp('new')}) as t
       order by t.term collate "C", t.lcp
       on conflict (tenant, term, lcp) do update set n = c.n + 1;
     return null;
   end $$`,
];

export function termPrefixCounts(engine: EngineKind) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (engine !== 'postgres') return;
      for (const statement of POSTGRES_TERM_PREFIX_COUNTS) await sql.raw(statement).execute(db);
    },
  };
}
