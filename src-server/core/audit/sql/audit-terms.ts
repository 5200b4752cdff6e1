import { sql, type SelectQueryBuilder } from 'kysely';
import type { Tx } from '../../storage/database.js';
import type { GatehouseSchema } from '../../storage/schema.js';
import type { AuditCursor } from '../audit-entry.js';
import { searchWords } from '../search-terms.js';

type Reader = Pick<Tx, 'selectFrom'>;
/** A database or a transaction that also runs raw SQL. */
type SqlReader = Pick<Tx, 'selectFrom' | 'getExecutor'>;

/**
 * One lexeme of a search on PostgreSQL, as `audit_terms` (migration 0012) finds it: the terms it begins, the range
 * [from, to) of the index (collation "C": code-point order), and, when they are few, the terms themselves: then
 * each term's part of the index is read by equality, already in list order, and an entry holding two of them is
 * counted once by probing the terms before it rather than by hashing every match.
 */
export interface TermMatch {
  from: string;
  to: string | undefined;
  terms?: readonly string[];
  /** With `terms`: how many entries of the read tenants hold each, over the whole trail (`audit_term_counts`). */
  counts?: readonly number[];
}

/** At most this many terms that begin one lexeme are read term by term; more, as one range. */
export const TERMS_READ_ONE_BY_ONE = 16;

/** Where the matches of a search are read: the tenant (undefined: every tenant) and the time range. */
export interface TermScope {
  tenant: string | undefined;
  startMs?: number;
  endMs?: number;
}

/**
 * The lexemes of a search's words as PostgreSQL makes them (`to_tsvector('simple', word)`, the parser and dictionary
 * `to_tsquery` used on the same words before), each with the terms of the read tenants it begins (up to
 * TERMS_READ_ONE_BY_ONE, found by one index probe each). A word with no lexeme is left out, as `to_tsquery` leaves
 * it out of a conjunction. Empty when nothing can match: no lexeme at all, or one that begins no term.
 *
 * One statement for every lexeme: a search is a round trip each for its lexemes, their terms, its count and its
 * page (and begin and commit), and these were one for the lexemes and one more per lexeme.
 */
export async function resolveTerms(
  reader: SqlReader,
  search: string,
  tenant: string | undefined,
): Promise<TermMatch[]> {
  const words = searchWords(search);
  if (words.length === 0) return [];
  const tenants =
    tenant === undefined
      ? sql`select tenant from audit_day_counts group by tenant`
      : sql`select ${tenant}::text as tenant`;
  // The least term after `bound` (or at it) among the tenants' parts of the index: one probe per tenant. The probe
  // has no upper bound: the recursion stops at the first term the lexeme does not begin (collation "C" orders
  // by code point, so the terms a lexeme begins are next to each other).
  const next = (bound: ReturnType<typeof sql>, op: string) => sql`(select min(f.term) from tn, lateral (
      select a.term from audit_terms a where a.tenant = tn.tenant and a.term ${sql.raw(op)} ${bound}
      order by a.term limit 1) as f)`;
  const { rows } = await sql<{ lexeme: string; term: string | null; n: number }>`
    with recursive tn as (${tenants}),
    lx as (select distinct l.lexeme from unnest(${words}::text[]) as w(word),
      unnest(tsvector_to_array(to_tsvector('simple', w.word))) as l(lexeme)),
    found(lexeme, term, k) as (
      select lx.lexeme, ${next(sql.ref('lx.lexeme'), '>=')}, 1 from lx
      union all
      select found.lexeme, ${next(sql.ref('found.term'), '>')}, k + 1 from found
      where starts_with(found.term, found.lexeme) and k <= ${TERMS_READ_ONE_BY_ONE})
    select lx.lexeme, found.term, coalesce((select sum(c.n) from audit_term_counts c
      where c.tenant in (select tenant from tn) and c.term = found.term), 0) as n
    from lx left join found on found.lexeme = lx.lexeme and starts_with(found.term, found.lexeme)
    order by lx.lexeme, found.k`.execute(reader);
  const byLexeme = new Map<string, { terms: string[]; counts: number[] }>();
  for (const { lexeme, term, n } of rows) {
    let found = byLexeme.get(lexeme);
    if (!found) byLexeme.set(lexeme, (found = { terms: [], counts: [] }));
    if (term === null) continue;
    found.terms.push(term);
    found.counts.push(n);
  }
  const matches: TermMatch[] = [];
  for (const [lexeme, { terms, counts }] of byLexeme) {
    // A lexeme that begins no term: nothing holds every lexeme.
    if (terms.length === 0) return [];
    const to = after(lexeme);
    matches.push(
      terms.length <= TERMS_READ_ONE_BY_ONE ? { from: lexeme, to, terms, counts } : { from: lexeme, to },
    );
  }
  // The lexeme in the fewest entries drives (read term by term if it can be); the others are probed.
  const entries = (match: TermMatch) => match.counts?.reduce((sum, n) => sum + n, 0) ?? Infinity;
  return matches.sort((a, b) => entries(a) - entries(b));
}

/** The least string greater than every string that begins with `prefix`, in code-point order (none: undefined). */
export function after(prefix: string): string | undefined {
  // Code points, not graphemes: the order compared is the code points'.
  const points = Array.from(prefix);
  while (points.length > 0) {
    let next = points.pop()!.codePointAt(0)! + 1;
    if (next === 0xd800) next = 0xe000;
    if (next <= 0x10ffff) return points.join('') + String.fromCodePoint(next);
  }
  return undefined;
}

type TermQuery = SelectQueryBuilder<GatehouseSchema, 'audit_terms', { time_ms: number; entry_id: number }>;

/** The term rows of the scope: of one term (`term`), or of every term the lexeme begins. */
function termRows(reader: Reader, scope: TermScope, match: TermMatch, term?: string): TermQuery {
  let query = reader.selectFrom('audit_terms').select(['time_ms', 'entry_id']);
  query =
    scope.tenant === undefined
      ? query.where(sql<boolean>`tenant in (select tenant from audit_day_counts group by tenant)`)
      : query.where('tenant', '=', scope.tenant);
  if (term !== undefined) query = query.where('term', '=', term);
  else if (match.terms !== undefined) query = query.where('term', 'in', match.terms);
  else {
    query = query.where('term', '>=', match.from);
    if (match.to !== undefined) query = query.where('term', '<', match.to);
  }
  if (scope.startMs !== undefined) query = query.where('time_ms', '>=', scope.startMs);
  if (scope.endMs !== undefined) query = query.where('time_ms', '<', scope.endMs);
  return query;
}

/**
 * Rows of the driving lexeme (or of one of its terms) whose entry holds every other lexeme too. `probe`: each row
 * probes the index for the others (`offset 0` keeps PostgreSQL from turning it into a hash join), so a page read
 * newest first stops after its rows; otherwise PostgreSQL hashes every row of the others in the scope first (over
 * 1M entries, "proc field" over 7 days hashed 26,756 rows of "proc…" for a page of 50: 38 ms; probing, 0.3 ms).
 */
function drivenRows(
  reader: Reader,
  terms: readonly TermMatch[],
  scope: TermScope,
  term?: string,
  probe = false,
): TermQuery {
  const [driver, ...others] = terms;
  let query = termRows(reader, scope, driver!, term);
  for (const other of others) {
    // A lexeme's range of terms can't be probed by (time, entry): each probe would read the whole range.
    if (!probe || other.terms === undefined) {
      query = query.where(sql<boolean>`(time_ms, entry_id) in (${termRows(reader, scope, other)})`);
      continue;
    }
    query = query.where(sql<boolean>`exists (select 1 from audit_terms b
      where b.tenant = audit_terms.tenant and b.term in (${sql.join(other.terms)})
        and b.time_ms = audit_terms.time_ms and b.entry_id = audit_terms.entry_id offset 0)`);
  }
  return query;
}

/**
 * The entries (time, id) of the scope that hold every lexeme, each once: read from `audit_terms` alone. For a
 * condition on the rows (`id in …`); counts and pages read the driving lexeme term by term instead.
 */
export function termMatches(reader: Reader, terms: readonly TermMatch[], scope: TermScope): TermQuery {
  if (terms.length === 0)
    throw new Error('termMatches needs at least one term (an empty search matches nothing).');
  return drivenRows(reader, terms, scope).distinct();
}

/**
 * How many entries of the scope hold every lexeme, exactly. One lexeme over the whole trail: from
 * `audit_term_counts` alone. Otherwise from the index: with the driving lexeme's terms known, each term's rows are
 * counted, less those whose entry holds one of the terms before it (a probe of the index per row, only for the
 * second term on), where a DISTINCT hashed every match.
 */
export async function countTermMatches(
  reader: SqlReader,
  terms: readonly TermMatch[],
  scope: TermScope,
): Promise<number> {
  const driver = terms[0];
  if (!driver) return 0;
  const wholeTrail = terms.length === 1 && scope.startMs === undefined && scope.endMs === undefined;
  if (wholeTrail) {
    // A lexeme that begins one term: that term's entries are counted already.
    if (driver.terms?.length === 1 && driver.counts?.[0] !== undefined) return driver.counts[0];
    return await countEntriesWithPrefix(reader, driver, scope.tenant);
  }
  if (driver.terms === undefined) {
    const row = await reader
      .selectFrom(termMatches(reader, terms, scope).as('m'))
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    return row?.n ?? 0;
  }
  const counts = driver.terms.map((term, k) => {
    let rows = drivenRows(reader, terms, scope, term);
    const before = driver.terms!.slice(0, k);
    if (before.length > 0) {
      // One index probe per row: `offset 0` keeps PostgreSQL 15 from making this a hash anti-join, which hashes
      // every row of the terms before (the lexeme's own word, usually the largest) to test the fewer rows here.
      rows = rows.where(sql<boolean>`not exists (select 1 from audit_terms b
        where b.tenant = audit_terms.tenant and b.term in (${sql.join(before)})
          and b.time_ms = audit_terms.time_ms and b.entry_id = audit_terms.entry_id offset 0)`);
    }
    return sql`(${rows.clearSelect().select((eb) => eb.fn.countAll<number>().as('n'))})`;
  });
  const { rows } = await sql<{ n: number }>`select ${sql.join(counts, sql` + `)} as n`.execute(reader);
  return rows[0]?.n ?? 0;
}

/**
 * How many entries of the tenant (undefined: every tenant) hold a term the lexeme begins, over the whole trail,
 * from `audit_term_counts` alone: of an entry's terms in the lexeme's range, only the first has a shorter prefix in
 * common with the term before it than the lexeme (migration 0024).
 */
async function countEntriesWithPrefix(
  reader: SqlReader,
  match: TermMatch,
  tenant: string | undefined,
): Promise<number> {
  const tenants =
    tenant === undefined
      ? sql`c.tenant in (select tenant from audit_day_counts group by tenant)`
      : sql`c.tenant = ${tenant}`;
  const below = match.to === undefined ? sql`` : sql`and c.term < ${match.to}`;
  // `length` as the triggers measured `lcp`: in the database's characters.
  const { rows } = await sql<{ n: number }>`select coalesce(sum(c.n), 0)::bigint as n from audit_term_counts c
    where ${tenants} and c.term >= ${match.from} ${below} and c.lcp < length(${match.from}::text)`.execute(
    reader,
  );
  return rows[0]?.n ?? 0;
}

/**
 * A window of the matches in list order (time, then id, newest first), joined to their rows. With the driving
 * lexeme's terms known, each term's first `offset + limit` rows in list order (its index range read backwards)
 * hold every entry of the window, so only those are merged.
 */
export async function termPage(
  reader: Reader,
  terms: readonly TermMatch[],
  scope: TermScope,
  window: { limit: number; offset?: number; after?: AuditCursor },
) {
  const driver = terms[0];
  if (!driver) return [];
  const cursor = window.after;
  const newestFirst = (query: TermQuery, limit: number) =>
    query
      .$if(cursor !== undefined, (q) =>
        q.where(sql<boolean>`(time_ms, entry_id) < (${cursor!.timeMs}, ${cursor!.id})`),
      )
      .orderBy('time_ms', 'desc')
      .orderBy('entry_id', 'desc')
      .limit(limit);
  const reach = (window.offset ?? 0) + window.limit;
  let matches: TermQuery;
  if (driver.terms === undefined) matches = drivenRows(reader, terms, scope).distinct();
  else {
    const [first, ...rest] = driver.terms.map((term, k) =>
      reader
        .selectFrom(newestFirst(drivenRows(reader, terms, scope, term, true), reach).as(`t${k}`))
        .selectAll(),
    );
    let merged = first!;
    for (const next of rest) merged = merged.union(next);
    matches = reader.selectFrom(merged.as('u')).selectAll() as unknown as TermQuery;
  }
  const ordered = newestFirst(matches, window.limit).$if((window.offset ?? 0) > 0, (q) =>
    q.offset(window.offset!),
  );
  return await reader
    .selectFrom(ordered.as('m'))
    .innerJoin('audit_entries as e', 'e.id', 'm.entry_id')
    .select(['e.id', 'e.time_ms', 'e.entry', 'e.tenant'])
    .orderBy('m.time_ms', 'desc')
    .orderBy('m.entry_id', 'desc')
    .execute();
}
