import { sql } from 'kysely';
import type { Tx } from '../../storage/database.js';
import type { AuditCursor } from '../audit-entry.js';
import { afterInNewestFirst } from '../newest-first.js';
import {
  entriesWhere,
  entryConditions,
  filteredEntries,
  tenantOf,
  type EntryConditions,
  type SqlAuditFilter,
} from './audit-filter-sql.js';
import { runTemplated } from '../../storage/query-templates.js';
import { termPage } from './audit-terms.js';
import { newestMatchesPage, pagesFromNewestMatches } from './audit-search-page.js';
import { collectSearchMatches, SEARCH_BY_ID_UP_TO } from './audit-search.js';

type Reader = Pick<Tx, 'selectFrom' | 'executeQuery' | 'getExecutor'>;

/** Which rows of a filter in list order: `limit` of them after `after` (a position) or `offset` (a count). */
export interface ListWindow {
  limit: number;
  offset?: number;
  after?: AuditCursor;
}

/** An entry's row as a list reads it. */
export interface ListRow {
  id: number;
  time_ms: number;
  entry: string;
  tenant: string;
  /** SQLite's `json_valid(entry)`, when asked for (`checkJson`): 0 for text that is not JSON. */
  valid?: number;
}

/**
 * The rows of a filter in list order (time, then id, newest first). The action and user indexes lead with the
 * tenant, so for every tenant at once no index holds an action's or a user's entries in list order: SQLite then
 * sorts them all. Those pages first take the ids from the index alone (it holds the time and the id, so the sort
 * reads no row), then read only the page's rows — over 1M entries, one action of every tenant took 1.1 s reading
 * each row to sort it.
 */
export async function listRows(
  reader: Reader,
  filter: SqlAuditFilter,
  window: ListWindow,
  { checkJson = false }: { checkJson?: boolean } = {},
): Promise<ListRow[]> {
  // PostgreSQL, a search narrowed by nothing but tenant and time: the page's ids from `audit_terms` in list order
  // (for a word that begins one term, its index range read backwards), then only the page's rows.
  if (filter.engine === 'postgres' && filter.searchIsWholeFilter && filter.searchTerms !== undefined) {
    const scope = { tenant: tenantOf(filter), startMs: filter.startMs, endMs: filter.endMs };
    return await termPage(reader, filter.searchTerms, scope, window);
  }
  if (filter.search !== undefined) {
    const searched = await sqliteSearchPage(reader, filter, window, checkJson);
    if (Array.isArray(searched)) return searched;
    const shape = rowsShape(searched, window, checkJson);
    return await rowsQuery(reader, filteredEntries(reader, searched), shape.window, shape).execute();
  }
  return await runTemplated(reader, ...listRowsTemplate(reader, filter, window, { checkJson }));
}

/**
 * SQLite, a search that is the whole filter, counted without collecting its matches (`withSearchMatches`): with many
 * matches (or dense ones within a time range's ids: `pagesFromNewestMatches`), its page from the newest of them
 * (`newestMatchesPage`), or failing that the filter with the matches
 * collected after all. Any other filter (few matches are read by id) as it is.
 */
async function sqliteSearchPage(
  reader: Reader,
  filter: SqlAuditFilter,
  window: ListWindow,
  checkJson: boolean,
): Promise<ListRow[] | SqlAuditFilter> {
  const { searchQuery, searchMatches = 0 } = filter;
  const uncollected = filter.engine === 'sqlite' && filter.searchIsWholeFilter && !filter.searchHitsCollected;
  if (!uncollected || searchQuery === undefined) return filter;
  if (!pagesFromNewestMatches(searchMatches, window, filter.searchIds, SEARCH_BY_ID_UP_TO)) return filter;
  const page = await newestMatchesPage(reader, searchQuery, tenantOf(filter), window, {
    checkJson,
    ids: filter.searchIds,
    endMs: filter.endMs,
  });
  if (page) return page;
  // Dense matches of a range whose entries lie out of time order: read by id after all, as few matches are.
  if (searchMatches <= SEARCH_BY_ID_UP_TO) return filter;
  const collected = await collectSearchMatches(reader, filter.search!);
  return { ...filter, searchMatches: collected, searchHitsCollected: true };
}

/**
 * `listRows`' statement for a filter without a search, as a query template (`runTemplated`'s name, plan and
 * builder).
 */
export function listRowsTemplate(
  reader: Reader,
  filter: SqlAuditFilter,
  window: ListWindow,
  { checkJson = false }: { checkJson?: boolean } = {},
): [name: string, plan: RowsPlan, build: (slots: RowsPlan) => ReturnType<typeof rowsQuery>] {
  if (filter.search !== undefined) throw new Error('listRowsTemplate: a search is not templated.');
  const { window: rows, ...shape } = rowsShape(filter, window, checkJson);
  // The statement's form (ids first, the JSON check) is part of its shape: the same filter is read both ways.
  const plan = { conditions: entryConditions(filter), window: rows, shape };
  return [
    'audit-list-rows',
    plan,
    (slots) => rowsQuery(reader, entriesWhere(reader, slots.conditions), slots.window, slots.shape),
  ];
}

interface RowsPlan {
  conditions: EntryConditions;
  window: ListWindow;
  shape: { sortedInIndex: boolean; validity: boolean };
}

/** How the rows are read: the page's ids first or not, the JSON check, and the window without an empty OFFSET. */
function rowsShape(filter: SqlAuditFilter, window: ListWindow, checkJson: boolean) {
  const sortedInIndex =
    (filter.engine === 'sqlite' &&
      tenantOf(filter) === undefined &&
      (filter.actionName !== undefined || filter.userName !== undefined)) ||
    // PostgreSQL skips an OFFSET's rows in the index alone this way (its visibility map kept by vacuum), where
    // reading them whole visited each skipped row: over 1M entries, page 5000 skipped 15,000 rows, 19 ms → 2.4 ms.
    (filter.engine === 'postgres' && (window.offset ?? 0) > 0);
  // SQLite's verdict on each entry's text, for a caller that sends the text on without parsing it (`entryJsonOfRow`).
  const validity = checkJson && filter.engine === 'sqlite';
  // An offset of 0 is none: the statement has no OFFSET then.
  const rows = { ...window, offset: (window.offset ?? 0) > 0 ? window.offset : undefined };
  return { sortedInIndex, validity, window: rows };
}

/** The page's rows of `entries` in list order; `sortedInIndex`: the page's ids first, then their rows. */
function rowsQuery(
  reader: Reader,
  entries: ReturnType<typeof entriesWhere>,
  window: ListWindow,
  { sortedInIndex, validity }: { sortedInIndex: boolean; validity: boolean },
) {
  const ordered = entries
    .$if(window.after !== undefined, (q) => q.where(afterInNewestFirst(window.after!)))
    .orderBy('time_ms', 'desc')
    .orderBy('id', 'desc')
    .limit(window.limit)
    .$if(window.offset !== undefined, (q) => q.offset(window.offset!));
  const columns = (query: ReturnType<typeof entriesWhere>) =>
    query
      .select(['id', 'time_ms', 'entry', 'tenant'])
      .$if(validity, (q) => q.select(sql<number>`json_valid(entry)`.as('valid')));
  if (!sortedInIndex) return columns(ordered);
  return columns(reader.selectFrom('audit_entries'))
    .where('id', 'in', ordered.select('id'))
    .orderBy('time_ms', 'desc')
    .orderBy('id', 'desc');
}
