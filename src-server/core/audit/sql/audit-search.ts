import { sql, type ExpressionBuilder } from 'kysely';
import type { Tx } from '../../storage/database.js';
import type { EngineKind } from '../../storage/engine-kind.js';
import type { GatehouseSchema } from '../../storage/schema.js';
import { fts5Query, searchWords, tsQuery } from '../search-terms.js';

type Reader = Pick<Tx, 'selectFrom'>;

/**
 * At most this many entries matching a search (of every tenant, from the full-text index), SQLite reads the
 * matching entries by id and sorts them; above it, it walks the trail newest first and tests each entry against
 * the matches, which finds a page after at most ~20,000 entries when matches are that common (index entries
 * only: the walk needs no row but the page's). Reading by id costs a row lookup per match (over 1M entries,
 * ~65,000 matches took 800 ms that way); the walk costs the whole range when matches are rare.
 */
export const SEARCH_BY_ID_UP_TO = 5_000;

/** What a search needs to know about the store it runs on. */
export interface SearchContext {
  engine?: EngineKind;
  /** The matches of every tenant in the full-text index (`countSearchMatches`), when counted. */
  searchMatches?: number;
  /** Set when those matches are exactly the filter's entries: the list's `totalCount` without counting per day. */
  searchIsWholeFilter?: boolean;
}

/**
 * The entries of every tenant whose parameters hold the search's words, counted from the full-text index alone:
 * on SQLite the FTS5 doclists (~10 ms for 65,000 matches among 1M entries, where reading each match's row for its
 * day took ~300 ms), on PostgreSQL the GIN index (a count needs no column of the rows).
 */
export async function countSearchMatches(
  reader: Reader,
  engine: EngineKind,
  search: string,
): Promise<number> {
  const words = searchWords(search);
  if (words.length === 0) return 0;
  const row =
    engine === 'sqlite'
      ? await reader
          .selectFrom(sql`audit_search`.as('audit_search'))
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where(sql<boolean>`audit_search match ${fts5Query(words)}`)
          .executeTakeFirst()
      : await reader
          .selectFrom('audit_entries')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where(sql<boolean>`search_document @@ to_tsquery('simple', ${tsQuery(words)})`)
          .executeTakeFirst();
  return row?.n ?? 0;
}

/** Whether the trail holds entries of no tenant but `tenant` (undefined: every tenant is read anyway). */
export async function holdsOnlyTenant(reader: Reader, tenant: string | undefined): Promise<boolean> {
  if (tenant === undefined) return true;
  const other = await reader
    .selectFrom('audit_day_counts')
    .select('tenant')
    .where('tenant', '<>', tenant)
    .limit(1)
    .executeTakeFirst();
  return other === undefined;
}

/** The condition of a search with at least one word, on the engine it runs on. */
export function searchCondition(words: readonly string[], context: SearchContext) {
  return (eb: ExpressionBuilder<GatehouseSchema, 'audit_entries'>) => {
    if (context.engine !== 'sqlite')
      return sql<boolean>`search_document @@ to_tsquery('simple', ${tsQuery(words)})`;
    const matches = sql<number>`(select rowid from audit_search where audit_search match ${fts5Query(words)})`;
    // `+id` keeps SQLite from reading the matches by id (the unary plus hides the column from the planner), so
    // it walks the trail in list order instead; unless the matches are known to be few.
    const byId = context.searchMatches !== undefined && context.searchMatches <= SEARCH_BY_ID_UP_TO;
    return byId ? eb('id', 'in', matches) : eb(sql<number>`+id`, 'in', matches);
  };
}

/**
 * The filter with its search's matches counted from the full-text index, in the reader's snapshot, and whether
 * they are the filter's whole result: a search and nothing else (no time range, action, user, instance or
 * resource) over a trail that holds only the tenant read. On PostgreSQL only then: otherwise its per-day count
 * reads the same matching rows again, and its planner needs no hint.
 */
export async function withSearchMatches<F extends FilterShape>(
  reader: Reader,
  filter: F,
  tenant: string | undefined,
): Promise<F> {
  if (filter.search === undefined || filter.engine === undefined) return filter;
  const narrowed = [
    filter.actionName,
    filter.userName,
    filter.instance,
    filter.resource,
    filter.startMs,
    filter.endMs,
  ];
  const whole = narrowed.every((value) => value === undefined) && (await holdsOnlyTenant(reader, tenant));
  if (filter.engine !== 'sqlite' && !whole) return filter;
  const searchMatches = await countSearchMatches(reader, filter.engine, filter.search);
  return { ...filter, searchMatches, searchIsWholeFilter: whole };
}

/** The parts of an audit filter a search's plan depends on. */
interface FilterShape extends SearchContext {
  search?: string;
  actionName?: string;
  userName?: string;
  instance?: string;
  resource?: unknown;
  startMs?: number;
  endMs?: number;
}
