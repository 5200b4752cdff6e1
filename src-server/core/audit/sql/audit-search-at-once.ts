import { sql, type RawBuilder } from 'kysely';
import type { Tx } from '../../storage/database.js';
import { runTemplated } from '../../storage/query-templates.js';
import type { AuditCursor } from '../audit-entry.js';
import { searchWords } from '../search-terms.js';
import { tenantOf, type SqlAuditFilter } from './audit-filter-sql.js';
import type { ListRow, ListWindow } from './audit-list-rows.js';
import { TERMS_READ_ONE_BY_ONE } from './audit-terms.js';

type Reader = Pick<Tx, 'selectFrom' | 'executeQuery' | 'getExecutor'>;

/** At most this many terms that begin one lexeme are read by one statement; more: the transaction's way. */
export const TERMS_READ_AT_ONCE = 64;

/**
 * A probe of the index (a descent per term) costs about this many rows read in order and joined: over 1M entries,
 * 3,950 probes of one term took ~16 ms of the server's CPU where reading 23,962 rows and hashing them took ~11.
 */
const PROBES_PER_ROW_READ = 8;

/** A row of the statement: the count (`n`, `overflow`) or an entry (the rest). */
interface CountOrEntry {
  n: number | null;
  overflow: boolean | null;
  id: number | null;
  time_ms: number | null;
  entry: string | null;
  tenant: string | null;
}

/**
 * PostgreSQL, a search narrowed by nothing but tenant and time: its count and a page of its rows by one statement,
 * the search's lexemes resolved in it. One statement sees one snapshot, so no transaction: a ranged search took
 * five round trips (begin, its terms, its count, its page, commit), each a wake-up of the server process and of
 * Gatehouse's, which on a busy host is where a request waits.
 *
 * As `resolveTerms`, `countTermMatches` and `termPage` read it, but with every lexeme's terms listed (up to
 * TERMS_READ_AT_ONCE each, from `audit_term_counts`): the driving lexeme is the one in the fewest entries; each of
 * its terms' rows in list order is read from its own index range (`offset + limit` at most), each row probing the
 * other lexemes' terms, so a word beginning 51 terms ("batchsize": batchsize0…) reads ~50 rows of each rather than
 * all 9,896 of the range (over 1M entries, 45 → 1.5 ms). Counted as `countTermMatches` does: over the whole trail,
 * one lexeme from the counts alone; otherwise each term's rows joined to the other lexemes' rows of the scope, less
 * those holding a term before it (a probe per row), or, above TERMS_READ_ONE_BY_ONE terms, their distinct entries.
 * A driving lexeme in far fewer entries than the others' terms (by PROBES_PER_ROW_READ) is counted as its page is
 * read, each row probing the others, rather than by reading every row of the others in the scope: over 1M entries
 * "agent 985dafe0" over 7 days (1 row beside 23,962) took ~14 ms of PostgreSQL's CPU, now ~5.
 *
 * Undefined when it can't be read so: another engine, a filter by name, instance or resource (the transaction's
 * way counts those), a lexeme that begins more than TERMS_READ_AT_ONCE terms, or words that are not one lexeme
 * each (the statement then reads nothing).
 */
export async function searchPageAtOnce(
  reader: Reader,
  filter: SqlAuditFilter,
  window: ListWindow,
): Promise<{ totalCount: number; rows: ListRow[] } | undefined> {
  const byName = [filter.actionName, filter.userName, filter.instance, filter.resource];
  if (filter.engine !== 'postgres' || filter.search === undefined || byName.some((v) => v !== undefined))
    return undefined;
  const words = searchWords(filter.search);
  // No word (the API refuses such a search): nothing matches.
  if (words.length === 0) return { totalCount: 0, rows: [] };
  const distinct = [...new Set(words)];
  const plan = {
    // Words hold letters and digits only: one value.
    words: distinct.join(' '),
    // The places of the lexemes after the driving one, when each word is one lexeme (the statement says when not):
    // the count joins each one's rows (a hash of them, as `countTermMatches` does) rather than probing per row.
    others: distinct.slice(1).map((_, k) => k + 2),
    tenant: tenantOf(filter),
    startMs: filter.startMs,
    endMs: filter.endMs,
    after: window.after,
    reach: (window.offset ?? 0) + window.limit,
    limit: window.limit,
    offset: (window.offset ?? 0) > 0 ? window.offset : undefined,
  };
  const read = await runTemplated(reader, 'audit-search-at-once', plan, (slots) =>
    reader.selectFrom(statement(slots).as('s')).selectAll().$castTo<CountOrEntry>(),
  );
  const counted = read.find((row) => row.id === null);
  if (!counted || counted.overflow) return undefined;
  const rows: ListRow[] = [];
  for (const row of read) {
    if (row.id !== null)
      rows.push({ id: row.id, time_ms: row.time_ms!, entry: row.entry!, tenant: row.tenant! });
  }
  // A union keeps no order: the page's, newest first, again.
  rows.sort((a, b) => b.time_ms - a.time_ms || b.id - a.id);
  return { totalCount: Number(counted.n), rows };
}

/**
 * The entries of `tenant` in the range (`rangeOf` each alias) holding the driving lexeme's one term and each other
 * lexeme's (`places` in `ranked`): an inner join, as (tenant, term, time, id) is unique; each term an equality on the
 * index's leading columns, so its rows come in (time, id) order for a merge join.
 */
function mergedCount(tenant: string, places: number[], rangeOf: (alias: string) => RawBuilder<unknown>) {
  // Each side's range stated: PostgreSQL carries equalities across a join, not ranges.
  const joins = places.map((place, k) => {
    const b = sql.raw(`b${k}`);
    return sql` join audit_terms ${b} on ${b}.tenant = ${tenant}
      and ${b}.term = (select terms[1] from ranked where place = ${place}) ${rangeOf(`b${k}`)}
      and ${b}.time_ms = a.time_ms and ${b}.entry_id = a.entry_id`;
  });
  return sql`(select count(*) from audit_terms a${sql.join(joins, sql``)}
    where a.tenant = ${tenant} and a.term = (select terms[1] from drv) ${rangeOf('a')})`;
}

interface Slots {
  words: string;
  others: number[];
  tenant: string | undefined;
  startMs: number | undefined;
  endMs: number | undefined;
  after: AuditCursor | undefined;
  reach: number;
  limit: number;
  offset: number | undefined;
}

function statement(slots: Slots): RawBuilder<CountOrEntry> {
  const tenants =
    slots.tenant === undefined
      ? sql`select tenant from audit_day_counts group by tenant`
      : sql`select ${slots.tenant}::text as tenant`;
  // The least term after `bound` (or at it) among the tenants' counts: one probe per tenant, no upper bound (the
  // recursion stops at the first term the lexeme does not begin; collation "C" orders by code point).
  const next = (bound: RawBuilder<unknown>, op: string) => sql`(select min(f.term) from tn, lateral (
      select c.term from audit_term_counts c where c.tenant = tn.tenant and c.term ${sql.raw(op)} ${bound}
      order by c.term limit 1) as f)`;
  /** ` and <alias>.time_ms >= start and … < end`, as the range has them. */
  const rangeOf = (alias: string) => {
    const time = sql.ref(`${alias}.time_ms`);
    return sql.join(
      [
        ...(slots.startMs === undefined ? [] : [sql`${time} >= ${slots.startMs}`]),
        ...(slots.endMs === undefined ? [] : [sql`${time} < ${slots.endMs}`]),
      ].map((condition) => sql` and ${condition}`),
      sql``,
    );
  };
  const inRange = rangeOf('a');
  // A row of the driving lexeme's term `t.term` in the scope, whose entry holds every other lexeme: a probe of
  // the index per row and lexeme (`offset 0` keeps it one, not a hash of every row of the others).
  const matching = sql`a.tenant = tn.tenant and a.term = t.term ${inRange}
    and not exists (select 1 from others o where not exists (select 1 from audit_terms b
      where b.tenant = a.tenant and b.term = any(o.terms) and b.time_ms = a.time_ms and b.entry_id = a.entry_id
      offset 0))`;
  const cursor =
    slots.after === undefined
      ? sql``
      : sql`and (a.time_ms, a.entry_id) < (${slots.after.timeMs}, ${slots.after.id})`;
  // The same row for a count: each other lexeme's rows of the scope joined (hashed when many), not probed per row.
  const bRange = rangeOf('b');
  const counting = sql`a.tenant = tn.tenant and a.term = t.term ${inRange} ${sql.join(
    slots.others.map(
      (place) => sql` and (a.time_ms, a.entry_id) in (select b.time_ms, b.entry_id from audit_terms b
        where b.tenant in (select tenant from tn) ${bRange}
          and b.term = any((select terms from ranked where place = ${place})::text[]))`,
    ),
    sql``,
  )}`;
  // Each of the driving lexeme's terms' rows meeting `condition`, less those holding a term before it (a probe per
  // row), summed.
  const perTerm = (
    condition: RawBuilder<unknown>,
  ) => sql`(select coalesce(sum((select count(*) from tn, audit_terms a
        where ${condition}
        and (t.k = 1 or not exists (select 1 from audit_terms b where b.tenant = a.tenant
          and b.term = any(drv.terms[1:t.k::integer - 1]) and b.time_ms = a.time_ms and b.entry_id = a.entry_id
          offset 0)))), 0)
      from drv, unnest(drv.terms) with ordinality as t(term, k))`;
  const distinctEntries = sql`(select count(*) from (select distinct a.time_ms, a.entry_id
      from drv, tn, unnest(drv.terms) as t(term), audit_terms a where ${counting}) as d)`;
  // A driving lexeme in far fewer entries than the others' terms: each of its rows probes the others' terms (as a
  // page does) rather than reading all their rows of the scope ("agent 985dafe0": 1 row beside 23,962).
  const fewDriving = sql`(select entries * ${sql.lit(PROBES_PER_ROW_READ)} * (select sum(cardinality(terms)) from others)
      < (select sum(entries) from ranked where place > 1) from drv)`;
  const counted = sql`case when (select cardinality(terms) from drv) <= ${sql.lit(TERMS_READ_ONE_BY_ONE)}
      then ${perTerm(counting)} else ${distinctEntries} end`;
  // Every lexeme one term, of one tenant: each term's rows of the scope, already in list order in the index, joined
  // on (time, id) as they are read (a merge join) rather than the larger hashed first ("agent node" over 7 days,
  // 3,950 and 23,962 rows: ~14 → ~9 ms of PostgreSQL's CPU).
  const oneTermEach =
    slots.tenant === undefined || slots.others.length === 0
      ? undefined
      : sql`case when (select cardinality(terms) from drv) = 1
          and not exists (select 1 from others where cardinality(terms) <> 1)
        then ${mergedCount(slots.tenant, slots.others, rangeOf)} else ${counted} end`;
  const ranged =
    slots.others.length === 0
      ? counted
      : sql`case when (select cardinality(terms) from drv) <= ${sql.lit(TERMS_READ_ONE_BY_ONE)} and ${fewDriving}
          then ${perTerm(matching)} else ${oneTermEach ?? counted} end`;
  // One lexeme over the whole trail: from the counts alone.
  const wholeTrail = slots.startMs === undefined && slots.endMs === undefined && slots.others.length === 0;
  const count = sql`case when (select yes from overflow) then null else ${
    wholeTrail ? sql`(select entries from drv)` : ranged
  } end`;
  return sql<CountOrEntry>`(with recursive tn as (${tenants}),
    lx as (select distinct l.lexeme from unnest(string_to_array(${slots.words}::text, ' ')) as w(word),
      unnest(tsvector_to_array(to_tsvector('simple', w.word))) as l(lexeme)),
    found(lexeme, term, k) as (
      select lx.lexeme, ${next(sql.ref('lx.lexeme'), '>=')}, 1 from lx
      union all
      select found.lexeme, ${next(sql.ref('found.term'), '>')}, k + 1 from found
      where starts_with(found.term, found.lexeme) and k <= ${sql.lit(TERMS_READ_AT_ONCE)}),
    sized as materialized (select l.lexeme, l.terms, (select coalesce(sum(c.n), 0) from audit_term_counts c
        where c.tenant in (select tenant from tn) and c.term = any(l.terms) and c.lcp < length(l.lexeme)) as entries
      from (select lx.lexeme,
          coalesce(array_agg(found.term order by found.k) filter (where found.term is not null), '{}') as terms
        from lx left join found on found.lexeme = lx.lexeme and starts_with(found.term, found.lexeme)
        group by lx.lexeme) as l),
    overflow as (select exists (select 1 from sized where cardinality(terms) > ${sql.lit(TERMS_READ_AT_ONCE)})
      or (select count(*) from sized) <> ${sql.lit(slots.others.length + 1)} as yes),
    ranked as materialized (select lexeme, terms, entries, row_number() over (order by entries, lexeme) as place
      from sized),
    drv as materialized (select lexeme, terms, entries from ranked where place = 1),
    others as materialized (select terms from ranked where place > 1),
    page as (select distinct f.time_ms, f.entry_id from drv, tn, unnest(drv.terms) as t(term), lateral (
        select a.time_ms, a.entry_id from audit_terms a where ${matching} ${cursor}
        order by a.time_ms desc, a.entry_id desc limit ${slots.reach}) as f
      where not (select yes from overflow)
      order by f.time_ms desc, f.entry_id desc limit ${slots.limit}
      ${slots.offset === undefined ? sql`` : sql`offset ${slots.offset}`})
    select ${count} as n, (select yes from overflow) as overflow,
      null::bigint as id, null::bigint as time_ms, null::text as entry, null::text as tenant
    union all
    select null, null, e.id, e.time_ms, e.entry, e.tenant from page p join audit_entries e on e.id = p.entry_id)`;
}
