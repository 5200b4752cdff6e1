import { sql } from 'kysely';
import type { Tx } from '../../storage/database.js';
import { fts5Query, searchWords } from '../search-terms.js';
import type { AuditCursor } from '../audit-entry.js';
import { openSearchMemo, rememberedAtBase, type SearchMemo } from './audit-search-memo.js';

/** A page's row as `listRows` returns it (its `ListRow`; apart, so that this module imports nothing that imports it). */
interface PageRow {
  id: number;
  time_ms: number;
  entry: string;
  tenant: string;
  valid?: number;
}

/** Which matches in list order: `limit` of them after `after` or `offset` (`listRows`' window). */
interface PageWindow {
  limit: number;
  offset?: number;
  after?: AuditCursor;
}

type Reader = Pick<Tx, 'getExecutor'>;

/**
 * SQLite: how many entries (of every tenant) hold a search's words, from the full-text index alone, and the FTS5
 * query that finds them. A word of ASCII letters and digits that begins one term of the index is counted from
 * that term's document count (`fts5vocab`, read in the index without a row per match) and then searched as that
 * term, whose doclist FTS5 reads backwards lazily (a prefix query merges the doclists of every term it begins
 * first: over 1M entries, "retried"* took 2 ms for its newest 50 matches, "retried" 0.1 ms); one that begins a few
 * terms, as those terms (`TERMS_ONE_BY_ONE`); so is each word of a search of several. Any other search is counted
 * by FTS5 (`count(*)`: its matches iterated, none stored), within `ids` when given (`SearchIdWindow`). Collecting
 * the matches into a table to count them cost 13–25 ms for 65,778 matches; the vocabulary's count, ~1 ms. The terms
 * and the count are remembered about the documents up to an id, those appended since counted apart
 * (`audit-search-memo.ts`): a page after another of the same search, or the same search again, also just after a
 * write, reads neither doclist to count.
 *
 * ASCII only: the word is the token unicode61 makes of it (the tokenizer folds A–Z and splits on what is neither
 * letter nor digit, as `searchWords` does); other text may fold or split otherwise, and FTS5 tokenizes it itself.
 */
export async function countSearchMatches(
  reader: Reader,
  search: string,
  ids?: SearchIdWindow,
): Promise<{ count: number; query: string | undefined }> {
  const words = searchWords(search);
  if (words.length === 0) return { count: 0, query: undefined };
  const memo = await openSearchMemo(reader);
  const parts: string[] = [];
  for (const word of words) {
    const terms = await termsBegunBy(memo, word);
    if (terms === undefined) {
      parts.push(fts5Query([word]));
      continue;
    }
    if (terms.length === 0) return { count: 0, query: undefined };
    if (words.length === 1 && ids === undefined && terms.length === 1)
      return { count: terms[0]!.doc, query: `"${terms[0]!.term}"` };
    // A document may hold several of the terms: counted by FTS5, but the terms' doclists read side by side.
    const exact = terms.map((row) => `"${row.term}"`).join(' OR ');
    parts.push(words.length === 1 ? exact : `(${exact})`);
  }
  const query = parts.join(' AND ');
  // Up to the base, remembered; above it, counted in the appended documents' index.
  const highAtBase = Math.min(ids?.highId ?? memo.newest, memo.newest);
  const key = `count ${ids?.lowId ?? ''} ${highAtBase} ${query}`;
  const atBase = await rememberedAtBase(memo, key, async () => {
    const { rows } = await sql<{ n: number }>`select count(*) as n from audit_search
      where audit_search match ${query} ${idBounds({ lowId: ids?.lowId, highId: highAtBase })}`.execute(
      reader,
    );
    return rows[0]!.n;
  });
  if (memo.appended === 0) return { count: atBase, query };
  const { rows } = await sql<{ n: number }>`select count(*) as n from temp.audit_search_delta
    where audit_search_delta match ${query} ${idBounds(ids)}`.execute(reader);
  return { count: atBase + rows[0]!.n, query };
}

/**
 * The terms of the index an ASCII word begins, with their document counts; undefined when the word is not ASCII
 * or begins more than `TERMS_ONE_BY_ONE` terms (searched as a prefix then). Remembered up to the memo's base (null:
 * more than `TERMS_ONE_BY_ONE` already), the appended documents' terms added.
 */
async function termsBegunBy(memo: SearchMemo, word: string): Promise<Term[] | undefined> {
  if (!ASCII_WORD.test(word)) return undefined;
  const { reader } = memo;
  const { rows: appended } =
    memo.appended === 0
      ? { rows: [] }
      : await sql<Term>`select term, doc from temp.audit_search_delta_vocab
          where term >= ${word} and term < ${nextAsciiPrefix(word)}`.execute(reader);
  const atBase = await rememberedAtBase(memo, `terms ${word}`, async () => {
    await sql`create virtual table if not exists temp.audit_search_vocab
      using fts5vocab(main, audit_search, row)`.execute(reader);
    // The vocabulary counts each term's documents as it lists the term: no more terms than can be used.
    const { rows } = await sql<Term>`select term, doc from temp.audit_search_vocab
      where term >= ${word} and term < ${nextAsciiPrefix(word)} limit ${TERMS_ONE_BY_ONE + 1}`.execute(
      reader,
    );
    // Appends only add terms: as many now, as many still while the base holds.
    if (rows.length > TERMS_ONE_BY_ONE) return null;
    return addCounts(rows, appended, -1);
  });
  if (atBase === null) return undefined;
  const terms = addCounts(atBase, appended, 1);
  return terms.length <= TERMS_ONE_BY_ONE ? terms : undefined;
}

interface Term {
  term: string;
  doc: number;
}

/** The terms of `terms` and `more` with their counts added (`more`'s times `sign`), in term order; none at 0. */
function addCounts(terms: readonly Term[], more: readonly Term[], sign: 1 | -1): Term[] {
  const counts = new Map(terms.map(({ term, doc }) => [term, doc]));
  for (const { term, doc } of more) counts.set(term, (counts.get(term) ?? 0) + sign * doc);
  return [...counts]
    .filter(([, doc]) => doc > 0)
    .map(([term, doc]) => ({ term, doc }))
    .sort((a, b) => (a.term < b.term ? -1 : a.term > b.term ? 1 : 0));
}

/**
 * SQLite: the ids of exactly the entries of a time range, when proven (`searchIdWindow`): FTS5 then reads only the
 * rowids between them (both ends included).
 */
export interface SearchIdWindow {
  lowId?: number;
  highId?: number;
}

/**
 * The conditions on FTS5's rowid of an id window (none without one). Cast: FTS5 takes a rowid bound only as an
 * integer value, and better-sqlite3 binds a JavaScript number as a real, which FTS5 ignores (it then reads every
 * match: over 1M entries 4.75 ms, bounded 0.62).
 */
export function idBounds(ids: SearchIdWindow | undefined) {
  return sql`${ids?.lowId === undefined ? sql`` : sql`and rowid >= cast(${ids.lowId} as integer)`}
    ${ids?.highId === undefined ? sql`` : sql`and rowid <= cast(${ids.highId} as integer)`}`;
}

const ASCII_WORD = /^[a-z0-9]+$/;
/**
 * At most this many terms that a word begins are searched as those terms (`"a" OR "b"`), whose doclists FTS5 reads
 * side by side and backwards lazily; more, as the prefix query. Over 1M entries the newest 100 matches of "sh"
 * (2 terms) took 1.2 ms that way, 7.5 ms as `"sh"*`; of "ret" (52 terms) 8.8 and 34 ms.
 */
const TERMS_ONE_BY_ONE = 16;

/** The least ASCII string after every string that begins with `word` (its last character, plus one). */
function nextAsciiPrefix(word: string): string {
  return word.slice(0, -1) + String.fromCharCode(word.charCodeAt(word.length - 1) + 1);
}

/**
 * SQLite, a search that is a list's whole filter: the window of its matches in list order (time, then id, newest
 * first), without collecting every match. FTS5 reads matches in rowid order, newest id first; the list's order is
 * by time, which ids follow but for entries written out of time order (an import of older entries, commits that
 * overtake each other). So the newest `m` matches by id are candidates: every match outside them has a lower id
 * than all of them. When no entry of the tenant between the window's last candidate and the list's start (or the
 * cursor) has a lower id, no match outside the candidates belongs in the window, and the candidates' order is the
 * answer. Otherwise more candidates are read; past `CANDIDATES_MAX`, undefined: the caller collects every match.
 *
 * The test reads the time index from the list's start down to the window's end: the entries a walk newest first
 * would read, without probing each against the matches. Only for searches with many matches (the caller's choice):
 * with few, the window's entries span much of the trail. A list over a time range passes the ids of exactly its
 * entries (`ids`, `searchIdWindow`) and its end: the candidates come from within them, the test stops at the end.
 */
export async function newestMatchesPage(
  reader: Reader,
  query: string,
  tenant: string | undefined,
  window: PageWindow,
  { checkJson = false, ids, endMs }: { checkJson?: boolean; ids?: SearchIdWindow; endMs?: number } = {},
): Promise<PageRow[] | undefined> {
  const offset = window.offset ?? 0;
  const reach = offset + window.limit;
  const after = window.after;
  for (let m = Math.max(2 * reach, CANDIDATES_MIN); m <= CANDIDATES_MAX; m *= 4) {
    // The candidates' rowids with their rows' time and tenant (a rowid without a row matches no entry).
    const { rows: candidates } = await sql<{ id: number; time_ms: number | null; tenant: string | null }>`
      select s.rowid as id, e.time_ms, e.tenant from (
        select rowid from audit_search where audit_search match ${query} ${idBounds(ids)}
        order by rowid desc limit ${m}
      ) as s left join audit_entries as e on e.id = s.rowid`.execute(reader);
    const eligible = candidates
      .filter(
        (row): row is { id: number; time_ms: number; tenant: string } =>
          row.time_ms !== null &&
          (tenant === undefined || row.tenant === tenant) &&
          (after === undefined ||
            row.time_ms < after.timeMs ||
            (row.time_ms === after.timeMs && row.id < after.id)),
      )
      .sort((a, b) => b.time_ms - a.time_ms || b.id - a.id);
    const complete = candidates.length < m;
    if (!complete) {
      if (eligible.length < reach) continue;
      const last = eligible[reach - 1]!;
      const lowestId = candidates.reduce((lowest, row) => Math.min(lowest, row.id), Infinity);
      const until = after ?? (endMs === undefined ? undefined : { timeMs: endMs, id: 0 });
      if (await outOfOrderBetween(reader, tenant, last, until, lowestId)) continue;
    }
    const pageIds = eligible.slice(offset, reach).map((row) => row.id);
    return await rowsOf(reader, pageIds, checkJson);
  }
  return undefined;
}

/**
 * Whether a page of a search that is the whole filter, with `matches` matches, is read from its newest matches
 * (`newestMatchesPage`) rather than by reading every match's row by id and sorting them. Over the whole trail,
 * above `searchByIdUpTo` matches. Within an id window (a time range, `SearchIdWindow`) and from the list's start
 * (an offset, no cursor), also when the matches are dense enough: the newest page's check reads the time index
 * over about `reach × entries / matches` entries (~0.02 µs each over 1M entries), reading by id costs a row per
 * match (~2.5 µs: 3,950 matches of two words over 7 days took 9.5 ms, the newest page ~1 ms), so the page is read
 * from the newest when that stretch is below `DENSE_RATIO` times the matches.
 */
export function pagesFromNewestMatches(
  matches: number,
  window: PageWindow,
  ids: SearchIdWindow | undefined,
  searchByIdUpTo: number,
): boolean {
  if (matches > searchByIdUpTo) return true;
  if (ids?.lowId === undefined || ids.highId === undefined || window.after !== undefined || matches === 0)
    return false;
  const entries = ids.highId - ids.lowId + 1;
  const reach = (window.offset ?? 0) + window.limit;
  return (reach * entries) / matches < DENSE_RATIO * matches;
}

/** How many times the matches the time index may read to check the newest page instead (see above). */
const DENSE_RATIO = 32;

/** Candidates read at first (at least): reading 64 rowids costs about what reading 2 does. */
const CANDIDATES_MIN = 64;
/** Most candidates read before giving up (each step reads four times as many). */
const CANDIDATES_MAX = 4096;

/**
 * Whether an entry of the tenant after `last` and before `after` (or the newest) in list order has an id below
 * `lowestId`: one the candidates can't hold. Reads the time index of that stretch. (A list's end is a position
 * `{ timeMs: endMs, id: 0 }`: before every entry at its time.)
 */
async function outOfOrderBetween(
  reader: Reader,
  tenant: string | undefined,
  last: { time_ms: number; id: number },
  after: { timeMs: number; id: number } | undefined,
  lowestId: number,
): Promise<boolean> {
  const { rows } = await sql<{ found: number }>`select exists (select 1 from audit_entries
    where ${tenant === undefined ? sql`1` : sql`tenant = ${tenant}`}
      and time_ms >= ${last.time_ms} and (time_ms > ${last.time_ms} or id > ${last.id})
      ${after === undefined ? sql`` : sql`and time_ms <= ${after.timeMs} and (time_ms < ${after.timeMs} or id < ${after.id})`}
      and id < ${lowestId}) as found`.execute(reader);
  return rows[0]?.found === 1;
}

async function rowsOf(reader: Reader, ids: readonly number[], checkJson: boolean): Promise<PageRow[]> {
  if (ids.length === 0) return [];
  const { rows } = await sql<PageRow>`select id, time_ms, entry, tenant
    ${checkJson ? sql`, json_valid(entry) as valid` : sql``}
    from audit_entries where id in (${sql.join(ids)}) order by time_ms desc, id desc`.execute(reader);
  return rows;
}
