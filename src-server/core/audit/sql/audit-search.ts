import { sql, type ExpressionBuilder } from 'kysely';
import type { Tx } from '../../storage/database.js';
import type { EngineKind } from '../../storage/engine-kind.js';
import type { GatehouseSchema } from '../../storage/schema.js';
import { fts5Query, searchWords } from '../search-terms.js';
import {
  countTermMatches,
  resolveTerms,
  termMatches,
  type TermMatch,
  type TermScope,
} from './audit-terms.js';
import { countSearchMatches, idBounds, type SearchIdWindow } from './audit-search-page.js';
import { searchIdWindow } from './audit-search-window.js';

type Reader = Pick<Tx, 'selectFrom' | 'getExecutor'>;

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
  /**
   * When counted (`withSearchMatches`): on SQLite the matches of every tenant in FTS5, on PostgreSQL the matches
   * of the tenant and time range read.
   */
  searchMatches?: number;
  /** Set when those matches are exactly the filter's entries: the list's `totalCount` without counting per day. */
  searchIsWholeFilter?: boolean;
  /**
   * SQLite: the matches were collected into the connection's `temp.audit_search_hits` in this transaction
   * (`withSearchMatches`), so the statements that follow read them there instead of querying FTS5 again.
   */
  searchHitsCollected?: boolean;
  /**
   * SQLite, a search that is the whole filter, counted without collecting its matches (`countSearchMatches`): the
   * FTS5 query that finds them (a word that begins one term, as that term). A page then reads them with
   * `newestMatchesPage`, or collects them (`collectSearchMatches`) when it can't.
   */
  searchQuery?: string;
  /**
   * SQLite, with `searchQuery`: the ids of exactly the filter's time range (`searchIdWindow`), within which FTS5
   * reads its matches.
   */
  searchIds?: SearchIdWindow;
  /** PostgreSQL: the search's lexemes as `audit_terms` finds them (`withSearchTerms`); empty: nothing matches. */
  searchTerms?: readonly TermMatch[];
}

/**
 * SQLite: the ids of the entries of every tenant whose parameters hold the search's words, collected into a
 * temporary table of the connection (emptied first); returns how many. A list then evaluates the FTS5 query once
 * instead of once per statement (the count, each arm of the per-day counts, the page): a prefix query of a common
 * word (`"proc"*` expands to every word that starts so) took ~30 ms each time over 1M entries, and probing a
 * table keyed by id costs less than probing the subquery's transient copy. Its pages live in the temporary
 * database's cache, capped at `HITS_CACHE_KIB` (beyond it SQLite spills them to a temporary file, not memory).
 */
export async function collectSearchMatches(reader: Reader, search: string): Promise<number> {
  await sql`create temp table if not exists audit_search_hits (id integer primary key)`.execute(reader);
  await sql.raw(`pragma temp.cache_size = -${HITS_CACHE_KIB}`).execute(reader);
  await sql`delete from temp.audit_search_hits`.execute(reader);
  const words = searchWords(search);
  if (words.length === 0) return 0;
  const result = await sql`insert into temp.audit_search_hits
    select rowid from audit_search where audit_search match ${fts5Query(words)}`.execute(reader);
  return Number(result.numAffectedRows ?? 0);
}

const HITS_CACHE_KIB = 2048;

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

/** The condition of a search with at least one word, on the engine it runs on, over `scope`'s entries. */
export function searchCondition(
  reader: Pick<Tx, 'selectFrom'>,
  words: readonly string[],
  context: SearchContext,
  scope: TermScope,
) {
  return (eb: ExpressionBuilder<GatehouseSchema, 'audit_entries'>) => {
    if (context.engine !== 'sqlite') {
      const terms = context.searchTerms;
      if (terms === undefined) throw new Error('A search on PostgreSQL needs its terms (withSearchTerms).');
      if (terms.length === 0) return sql<boolean>`false`;
      return eb('id', 'in', termMatches(reader, terms, scope).clearSelect().select('entry_id'));
    }
    const matches = context.searchHitsCollected
      ? sql<number>`(select id from temp.audit_search_hits)`
      : sql<number>`(select rowid from audit_search
          where audit_search match ${context.searchQuery ?? fts5Query(words)} ${idBounds(context.searchIds)})`;
    // `+id` keeps SQLite from reading the matches by id (the unary plus hides the column from the planner), so
    // it walks the trail in list order instead; unless the matches are known to be few.
    const byId = context.searchMatches !== undefined && context.searchMatches <= SEARCH_BY_ID_UP_TO;
    return byId ? eb('id', 'in', matches) : eb(sql<number>`+id`, 'in', matches);
  };
}

/**
 * PostgreSQL: the filter with its search's lexemes resolved against `audit_terms` in the reader's snapshot, and
 * whether `audit_terms` alone holds its matches (no action, user, instance or resource narrows the search: tenant
 * and time are in the terms' index). Any other engine: the filter as it is.
 */
export async function withSearchTerms<F extends FilterShape>(
  reader: Reader,
  filter: F,
  tenant: string | undefined,
): Promise<F> {
  if (filter.search === undefined || filter.engine !== 'postgres') return filter;
  const searchTerms = await resolveTerms(reader, filter.search, tenant);
  const byName = [filter.actionName, filter.userName, filter.instance, filter.resource];
  return { ...filter, searchTerms, searchIsWholeFilter: byName.every((value) => value === undefined) };
}

/**
 * The filter with its search's matches counted in the reader's snapshot, and whether they are the filter's whole
 * result. SQLite counts them in FTS5, which knows no tenant or time: whole when the search is the only filter but a
 * time range over a trail that holds only the tenant read, and then counted from the index alone
 * (`countSearchMatches`: the page needs only its own matches, `newestMatchesPage`), within the ids of the range
 * when the trail proves them exactly its entries (`searchIdWindow`; over 1M entries, two words over 7 days took
 * ~30 ms of CPU per request collected, ~9 ms so, ~3.5 ms with the terms and counts remembered, the entries appended
 * since added: `audit-search-memo.ts`); otherwise collected (`collectSearchMatches`: the statements
 * after it in the same transaction, the per-day counts and the page, read them from there). PostgreSQL counts them
 * in `audit_terms`, which holds each term's tenant and time: whole when no action, user, instance or resource
 * narrows the search (otherwise its per-day count reads the rows anyway, and its planner needs no hint).
 */
export async function withSearchMatches<F extends FilterShape>(
  reader: Reader,
  filter: F,
  tenant: string | undefined,
): Promise<F> {
  if (filter.search === undefined || filter.engine === undefined) return filter;
  if (filter.engine === 'postgres') {
    const resolved = await withSearchTerms(reader, filter, tenant);
    if (!resolved.searchIsWholeFilter) return resolved;
    const scope = { tenant, startMs: filter.startMs, endMs: filter.endMs };
    return { ...resolved, searchMatches: await countTermMatches(reader, resolved.searchTerms!, scope) };
  }
  const byName = [filter.actionName, filter.userName, filter.instance, filter.resource];
  if (byName.every((value) => value === undefined) && (await holdsOnlyTenant(reader, tenant))) {
    // The count, and (in `listRows`) the page, without a row per match: over the whole trail, or within the ids of
    // the time range when they are exactly its entries.
    const ranged = filter.startMs !== undefined || filter.endMs !== undefined;
    const ids = ranged ? await searchIdWindow(reader, filter.startMs, filter.endMs) : undefined;
    if (!ranged || ids !== undefined) {
      const { count, query } = await countSearchMatches(reader, filter.search, ids);
      return {
        ...filter,
        searchMatches: count,
        searchIsWholeFilter: true,
        searchQuery: query,
        searchIds: ids,
      };
    }
  }
  const searchMatches = await collectSearchMatches(reader, filter.search);
  return { ...filter, searchMatches, searchIsWholeFilter: false, searchHitsCollected: true };
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
