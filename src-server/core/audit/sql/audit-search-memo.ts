import { sql } from 'kysely';
import type { Tx } from '../../storage/database.js';
import { SEARCH_DOCUMENT_SQL } from '../../storage/migrations/0010-audit-search-batched.js';

type Reader = Pick<Tx, 'getExecutor'>;

/**
 * SQLite: what the full-text index answered (the terms a word begins, a query's count), remembered in tables of the
 * connection about the documents up to an id, its base (`newest`); the documents appended since are indexed again
 * in a small index of the connection (`temp.audit_search_delta`), whose answers are added to the remembered ones.
 * A write appends an entry or two, so the first search after it reads the new documents only, instead of the whole
 * index again (over 1M entries, listing the terms of "agent" with their counts took ~7 ms: FTS5 reads each term's
 * whole doclist to count it).
 *
 * The base holds while the documents up to it are unchanged: no entry removed (`audit_search_removals`, counted
 * by the delete trigger, migration 0027) and none inserted at or below its id (FTS5 counts every document
 * inserted: as many more as there are entries above the base, all went above it; ids come from a sequence, but an
 * import's chunks may commit out of id order). Otherwise, or once more than `DELTA_MAX` entries were appended, the
 * base moves to the newest entry and what was remembered is dropped. Tables of the connection: another database
 * file never sees them, a connection opened anew starts empty, and what another connection or process wrote is
 * seen in the counts. Must be opened in the transaction whose snapshot the searches read (its statements read the
 * base's checks, the documents and the index at different times); no writer searches.
 */
export interface SearchMemo {
  reader: Reader;
  /** The base: the remembered answers are about the documents up to this id (0: none). */
  newest: number;
  /** How many documents above the base there are (in `temp.audit_search_delta`): none, nothing to add. */
  appended: number;
}

/** The connection's memo, its base checked (and moved, when it can't hold) and its appended documents indexed. */
export async function openSearchMemo(reader: Reader): Promise<SearchMemo> {
  const rows = await readState(reader).catch(async (error: unknown) => {
    // A connection's first search: its tables made once, not checked by each search.
    if (!(error instanceof Error) || !error.message.includes('no such table: temp.')) throw error;
    await createTables(reader);
    return await readState(reader);
  });
  const state = rows[0]!;
  const docs = documentsInserted(state.averages);
  const holds =
    state.base_newest !== null &&
    state.removals === state.base_removals &&
    docs - state.base_docs! === state.above &&
    state.kept === state.appended &&
    state.above <= DELTA_MAX;
  if (!holds) {
    await sql`delete from temp.audit_search_memo`.execute(reader);
    await sql`insert into temp.audit_search_delta (audit_search_delta) values ('delete-all')`.execute(reader);
    await sql`delete from temp.audit_search_base`.execute(reader);
    await sql`insert into temp.audit_search_base (removals, docs, newest, appended_to, appended)
      values (${state.removals}, ${docs}, ${state.newest}, ${state.newest}, 0)`.execute(reader);
    return { reader, newest: state.newest, appended: 0 };
  }
  if (state.newest > state.appended_to!) {
    const inserted = await sql`insert into temp.audit_search_delta (rowid, document)
      select id, ${sql.raw(SEARCH_DOCUMENT_SQL)} from main.audit_entries where id > ${state.appended_to}`.execute(
      reader,
    );
    const appended = state.appended! + Number(inserted.numAffectedRows ?? 0);
    await sql`update temp.audit_search_base set appended_to = ${state.newest}, appended = ${appended}`.execute(
      reader,
    );
    return { reader, newest: state.base_newest!, appended };
  }
  return { reader, newest: state.base_newest!, appended: state.appended! };
}

async function readState(reader: Reader): Promise<TrailState[]> {
  const { rows } = await sql<TrailState>`select
      (select block from main.audit_search_data where id = 1) as averages,
      (select n from main.audit_search_removals) as removals,
      coalesce((select max(id) from main.audit_entries), 0) as newest,
      b.removals as base_removals, b.docs as base_docs, b.newest as base_newest, b.appended_to, b.appended,
      (select count(*) from main.audit_entries where id > b.newest) as above,
      (select count(*) from main.audit_entries where id > b.newest and id <= b.appended_to) as kept
    from (select 1) left join temp.audit_search_base as b`.execute(reader);
  return rows;
}

async function createTables(reader: Reader): Promise<void> {
  await sql`create temp table if not exists audit_search_memo (key text primary key, value text not null)`.execute(
    reader,
  );
  await sql`create temp table if not exists audit_search_base (
    removals integer not null, docs integer not null, newest integer not null, appended_to integer not null,
    appended integer not null)`.execute(reader);
  await sql`create virtual table if not exists temp.audit_search_delta
    using fts5(document, content='', tokenize='unicode61 remove_diacritics 0')`.execute(reader);
  await sql`create virtual table if not exists temp.audit_search_delta_vocab
    using fts5vocab(temp, audit_search_delta, row)`.execute(reader);
}

/**
 * The answer remembered under `key` about the documents up to the base, computed (and remembered) when there is
 * none. The caller adds what the appended documents answer.
 */
export async function rememberedAtBase<T>(
  memo: SearchMemo,
  key: string,
  compute: () => Promise<T>,
): Promise<T> {
  const { reader } = memo;
  const { rows } = await sql<{ value: string }>`select value from temp.audit_search_memo
    where key = ${key}`.execute(reader);
  if (rows[0] !== undefined) return JSON.parse(rows[0].value) as T;
  const value = await compute();
  // A full table is emptied (a burst of different searches).
  await sql`delete from temp.audit_search_memo
    where (select count(*) from temp.audit_search_memo) >= ${MEMO_ROWS}`.execute(reader);
  await sql`insert or replace into temp.audit_search_memo (key, value)
    values (${key}, ${JSON.stringify(value)})`.execute(reader);
  return value;
}

interface TrailState {
  averages: Uint8Array | null;
  removals: number;
  newest: number;
  base_removals: number | null;
  base_docs: number | null;
  base_newest: number | null;
  appended_to: number | null;
  appended: number | null;
  above: number | null;
  kept: number | null;
}

/**
 * How many documents were ever inserted into the index: the first varint of its averages record (FTS5 counts each
 * insert there; a contentless index with deletes does not count its deletes down).
 */
export function documentsInserted(averages: Uint8Array | null): number {
  if (averages === null || averages.length === 0) return 0;
  let value = 0;
  for (let k = 0; k < 9 && k < averages.length; k++) {
    const byte = averages[k]!;
    if (k === 8) return value * 256 + byte;
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) return value;
  }
  return value;
}

/** Entries appended above the base, at most, before the base moves (the appended documents are indexed again). */
const DELTA_MAX = 2_000;
/** Answers kept at one base, at most. */
const MEMO_ROWS = 512;
