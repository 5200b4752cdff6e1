import { sql, type RawBuilder } from 'kysely';
import type { Tx } from '../../storage/database.js';

type Reader = Pick<Tx, 'getExecutor'>;

/**
 * SQLite: what the full-text index answered (the terms a word begins, a query's count), remembered in a table of
 * the connection for as long as the index stays as it was. The index's version is two records of its own storage
 * (`audit_search_data`): the averages (id 1: how many documents and tokens it holds, changed by every insert and
 * delete of a document) and the structure (id 10: its segments and their tombstones, rewritten by every flush,
 * merge and delete); what changes the index changes one of them. An answer is stored with the version read in the
 * same statement as the answer itself (one snapshot, whether or not the caller holds a transaction), and read
 * back only while both records are still byte for byte what they were. A table of the connection: another
 * database file never sees it, and a connection opened anew starts empty. FTS5 may hold a transaction's new
 * terms in memory until it commits, and has written both records by then: a search must not run inside a
 * transaction that has written to the index (none does; the writers search nothing).
 *
 * Over 1M entries, counting "proc" (3 terms, 231k documents) took ~23 ms and listing the terms of "agent" with
 * their counts ~7 ms (FTS5 reads each term's whole doclist to count it); remembered, a lookup of a few µs.
 */
export async function remembered<T>(
  reader: Reader,
  key: string,
  compute: (version: RawBuilder<unknown>) => Promise<{ value: T; version: IndexVersion }>,
): Promise<T> {
  await sql`create temp table if not exists audit_search_memo (
    key text primary key, averages blob, structure blob, value text not null)`.execute(reader);
  const { rows } = await sql<{ value: string }>`select value from temp.audit_search_memo
    where key = ${key} and averages is ${AVERAGES} and structure is ${STRUCTURE}`.execute(reader);
  if (rows[0] !== undefined) return JSON.parse(rows[0].value) as T;
  const { value, version } = await compute(VERSION_COLUMNS);
  // Stale answers go first; a full table is emptied (a burst of different searches between two writes).
  await sql`delete from temp.audit_search_memo where averages is not ${version.averages}
    or structure is not ${version.structure}
    or (select count(*) from temp.audit_search_memo) >= ${MEMO_ROWS}`.execute(reader);
  await sql`insert or replace into temp.audit_search_memo (key, averages, structure, value)
    values (${key}, ${version.averages}, ${version.structure}, ${JSON.stringify(value)})`.execute(reader);
  return value;
}

/** The index's version as a statement read it (`VERSION_COLUMNS`); null where the index has no such record yet. */
export interface IndexVersion {
  averages: Uint8Array | null;
  structure: Uint8Array | null;
}

const AVERAGES = sql`(select block from main.audit_search_data where id = 1)`;
const STRUCTURE = sql`(select block from main.audit_search_data where id = 10)`;
/** The columns a computing statement adds to its select list to read the version in its own snapshot. */
const VERSION_COLUMNS = sql`${AVERAGES} as averages, ${STRUCTURE} as structure`;
/** Answers kept at one version, at most. */
const MEMO_ROWS = 512;
