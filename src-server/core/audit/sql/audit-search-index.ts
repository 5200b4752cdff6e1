import { sql } from 'kysely';
import type { Database, Tx } from '../../storage/database.js';
import type { AuditEntryTable } from '../../storage/schema.js';
import { SEARCH_DOCUMENT_SQL } from '../../storage/migrations/0010-audit-search-batched.js';

const INSERT_DOCUMENT = 'insert into audit_search (rowid, document) values (?, ?)';

/**
 * Inserts entry rows in the caller's transaction. On SQLite their parameters' words then go into `audit_search`
 * (migration 0010 says why not a trigger): the documents given (`searchDocumentOf`, built by an import's reader
 * thread) as they are, the others built by SQLite from the rows in one statement for the whole batch; on
 * PostgreSQL the generated column does it.
 */
export async function insertEntryRows(
  database: Database,
  trx: Tx,
  rows: readonly AuditEntryTable[],
  /** Per row, its document when known (`null`: no words); `undefined` or absent: SQLite builds it. */
  documents?: readonly (string | null | undefined)[],
): Promise<void> {
  if (rows.length === 0) return;
  await database.bulkInsert(trx, 'audit_entries', rows);
  await insertSearchDocuments(
    database,
    trx,
    rows.map((row) => row.id),
    documents ?? [],
  );
}

/**
 * SQLite: the full-text documents of entries just inserted (nothing on PostgreSQL): per id, the document given,
 * or, where it is `undefined` (or `documents` is shorter), the one SQLite builds from the row, in one statement
 * for them all.
 */
export async function insertSearchDocuments(
  database: Database,
  trx: Tx,
  ids: readonly number[],
  documents: readonly (string | null | undefined)[],
): Promise<void> {
  if (database.kind !== 'sqlite' || ids.length === 0) return;
  const given: unknown[] = [];
  const built: number[] = [];
  for (let k = 0; k < ids.length; k++) {
    const document = documents[k];
    if (document === undefined) built.push(ids[k]!);
    else given.push(ids[k], document);
  }
  if (given.length > 0) database.runEachOnSqlite(INSERT_DOCUMENT, 2, given, given.length / 2);
  if (built.length === 0) return;
  await sql`insert into audit_search (rowid, document)
    select id, ${sql.raw(SEARCH_DOCUMENT_SQL)} from audit_entries
    where id in (select value from json_each(${`[${built.join(',')}]`}))`.execute(trx);
}
