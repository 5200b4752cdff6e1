import { sql, type SelectQueryBuilder } from 'kysely';
import type { Tx } from '../../storage/database.js';
import type { GatehouseSchema } from '../../storage/schema.js';
import type { AuditCursor } from '../audit-entry.js';
import { searchWords } from '../search-terms.js';

type Reader = Pick<Tx, 'selectFrom'>;
/** A database or a transaction that also runs raw SQL. */
type SqlReader = Pick<Tx, 'selectFrom' | 'getExecutor'>;

/**
 * One lexeme of a search on PostgreSQL, as `audit_terms` (migration 0011) finds it: every term it begins, the
 * range [from, to) of the index (collation "C": code-point order), or the one term of the read tenants that it
 * begins, matched by equality (then an entry appears once and no duplicate has to be removed).
 */
export interface TermMatch {
  from: string;
  to: string | undefined;
  only?: string;
}

/** Where the matches of a search are read: the tenant (undefined: every tenant) and the time range. */
export interface TermScope {
  tenant: string | undefined;
  startMs?: number;
  endMs?: number;
}

/**
 * The lexemes of a search's words as PostgreSQL makes them (`to_tsvector('simple', word)`, the parser and dictionary
 * `to_tsquery` used on the same words before), each with the first two distinct terms of the index at or after
 * it, in one round trip. A word with no lexeme is left out, as `to_tsquery` leaves it out of a conjunction.
 * Empty when nothing can match: no lexeme at all, or one that begins no term.
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
      ? sql`(select tenant from audit_day_counts group by tenant)`
      : sql`(select ${tenant}::text as tenant)`;
  // The first term at or after `bound` in each tenant's part of the index, the least of them.
  const firstTerm = (bound: ReturnType<typeof sql>, strict: boolean) =>
    sql<string | null>`(select min(f.term) from ${tenants} as tn, lateral (
      select a.term from audit_terms a where a.tenant = tn.tenant and a.term ${sql.raw(strict ? '>' : '>=')} ${bound}
      order by a.term limit 1) as f)`;
  const { rows } = await sql<{ lexeme: string; first: string | null; second: string | null }>`
    with lexemes as (
      select distinct l.lexeme collate "C" as lexeme
      from unnest(${words}::text[]) as w(word), unnest(tsvector_to_array(to_tsvector('simple', w.word))) as l(lexeme)),
    firsts as (select lexeme, ${firstTerm(sql.ref('lexeme'), false)} as first from lexemes)
    select lexeme, first, case when first is null then null else ${firstTerm(sql.ref('first'), true)} end as second
    from firsts`.execute(reader);
  const matches: TermMatch[] = [];
  for (const { lexeme, first, second } of rows) {
    if (first === null || !first.startsWith(lexeme)) return [];
    const single = second === null || !second.startsWith(lexeme);
    matches.push(single ? { from: lexeme, to: after(lexeme), only: first } : { from: lexeme, to: after(lexeme) });
  }
  // Equality first: the driving lexeme of a match query needs no duplicate removal then.
  return matches.sort((a, b) => Number(b.only !== undefined) - Number(a.only !== undefined));
}

/** The least string greater than every string that begins with `prefix`, in code-point order (none: undefined). */
export function after(prefix: string): string | undefined {
  const points = [...prefix];
  while (points.length > 0) {
    let next = points.pop()!.codePointAt(0)! + 1;
    if (next === 0xd800) next = 0xe000;
    if (next <= 0x10ffff) return points.join('') + String.fromCodePoint(next);
  }
  return undefined;
}

type TermQuery = SelectQueryBuilder<GatehouseSchema, 'audit_terms', { time_ms: number; entry_id: number }>;

/** The entries (time, id) of the scope that hold every lexeme: read from `audit_terms` alone. */
export function termMatches(reader: Reader, terms: readonly TermMatch[], scope: TermScope): TermQuery {
  const rows = (term: TermMatch): TermQuery => {
    let query = reader.selectFrom('audit_terms').select(['time_ms', 'entry_id']);
    query =
      scope.tenant === undefined
        ? query.where(sql<boolean>`tenant in (select tenant from audit_day_counts group by tenant)`)
        : query.where('tenant', '=', scope.tenant);
    if (term.only !== undefined) query = query.where('term', '=', term.only);
    else {
      query = query.where('term', '>=', term.from);
      if (term.to !== undefined) query = query.where('term', '<', term.to);
    }
    if (scope.startMs !== undefined) query = query.where('time_ms', '>=', scope.startMs);
    if (scope.endMs !== undefined) query = query.where('time_ms', '<', scope.endMs);
    return query;
  };
  const [driver, ...others] = terms;
  if (!driver) throw new Error('termMatches needs at least one term (an empty search matches nothing).');
  let query = rows(driver);
  // Several terms begin with the driving lexeme: an entry holding two of them must still count once.
  if (driver.only === undefined) query = query.distinct();
  for (const other of others)
    query = query.where(sql<boolean>`(time_ms, entry_id) in (${rows(other)})`);
  return query;
}

/** How many entries of the scope hold every lexeme (exact: an index-only count). */
export async function countTermMatches(
  reader: Reader,
  terms: readonly TermMatch[],
  scope: TermScope,
): Promise<number> {
  if (terms.length === 0) return 0;
  const row = await reader
    .selectFrom(termMatches(reader, terms, scope).as('m'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** A window of the matches in list order (time, then id, newest first), joined to their rows. */
export async function termPage(
  reader: Reader,
  terms: readonly TermMatch[],
  scope: TermScope,
  window: { limit: number; offset?: number; after?: AuditCursor },
) {
  if (terms.length === 0) return [];
  let matches = termMatches(reader, terms, scope);
  const cursor = window.after;
  if (cursor !== undefined)
    matches = matches.where(sql<boolean>`(time_ms, entry_id) < (${cursor.timeMs}, ${cursor.id})`);
  const ordered = matches
    .orderBy('time_ms', 'desc')
    .orderBy('entry_id', 'desc')
    .limit(window.limit)
    .$if((window.offset ?? 0) > 0, (q) => q.offset(window.offset!));
  return await reader
    .selectFrom(ordered.as('m'))
    .innerJoin('audit_entries as e', 'e.id', 'm.entry_id')
    .select(['e.id', 'e.time_ms', 'e.entry', 'e.tenant'])
    .orderBy('m.time_ms', 'desc')
    .orderBy('m.entry_id', 'desc')
    .execute();
}
