import type { Database, Tx } from '../../storage/database.js';
import type { AuditEntryTable, AuditResourceTable } from '../../storage/schema.js';
import type { AuditEntry } from '../audit-entry.js';
import { withId, type NormalizedEntry } from '../normalize-entry.js';
import { CountDeltas } from './audit-count-deltas.js';
import { resourcesToKeep, rowOf, toEntryRow } from './audit-rows.js';
import type { ImportEntry } from '../import-batch.js';
import { chainRows } from '../chain/chain-writes.js';
import { insertEntryRows } from './audit-search-index.js';

export const AUDIT_SEQUENCE = 'audit_entries';

/** An entry ready to be written: normalized, with its content digest. */
export interface PreparedEntry extends NormalizedEntry {
  hash: string;
  /** Gatehouse's own trail when absent. */
  tenant?: string;
}

/**
 * Writes entries in the caller's transaction: ids from the sequence (in the order given), the rows, the
 * resources of configuration entries, and the counts. Returns the stored entries.
 */
export async function insertEntries(
  database: Database,
  trx: Tx,
  entries: readonly PreparedEntry[],
  recordedAt: number,
): Promise<AuditEntry[]> {
  if (entries.length === 0) return [];
  const first = await database.reserveIds(trx, AUDIT_SEQUENCE, entries.length);
  return insertEntriesWithIds(
    database,
    trx,
    entries.map((entry, k) => ({ id: first + k, entry })),
    recordedAt,
  );
}

/**
 * Like `insertEntries`, with the ids given (entries converted from an older store keep theirs). `returning`
 * false skips building the stored entries (an import only counts them).
 */
export async function insertEntriesWithIds(
  database: Database,
  trx: Tx,
  entries: readonly { id: number; entry: PreparedEntry }[],
  recordedAt: number,
  returning = true,
  /** Always true but in bench:audit's "import without chaining", which measures what chaining costs. */
  chained = true,
): Promise<AuditEntry[]> {
  const rows: AuditEntryTable[] = [];
  const resources: AuditResourceTable[] = [];
  const deltas = new CountDeltas();
  const stored: AuditEntry[] = [];
  entries.forEach(({ id, entry: prepared }) => {
    const { row, actionName, userName } = toEntryRow(
      id,
      prepared,
      prepared.hash,
      recordedAt,
      prepared.tenant,
    );
    rows.push(row);
    deltas.add(row.tenant, actionName, userName, prepared.timeMs, 1);
    for (const resource of resourcesToKeep(prepared.entry)) resources.push({ entry_id: id, ...resource });
    if (returning) stored.push(withId(id, prepared.entry));
  });
  await writeRows(database, trx, { rows, resources, deltas }, chained);
  return stored;
}

/** Writes an import's entries, prepared by `prepareImportEntry`, under the ids given, into one tenant's trail. */
export async function insertImportEntries(
  database: Database,
  trx: Tx,
  entries: readonly { id: number; entry: ImportEntry }[],
  recordedAt: number,
  tenant: string,
  chained: boolean,
): Promise<void> {
  const rows: AuditEntryTable[] = [];
  const resources: AuditResourceTable[] = [];
  const deltas = new CountDeltas();
  const digests: string[] = [];
  const documents: (string | null | undefined)[] = [];
  for (const { id, entry } of entries) {
    rows.push(rowOf(id, entry, recordedAt, tenant));
    digests.push(entry.chainDigest);
    documents.push(entry.searchDocument);
    deltas.addKeyed(tenant, entry, entry.timeMs, 1);
    for (const resource of entry.resources) resources.push({ entry_id: id, ...resource });
  }
  await writeRows(database, trx, { rows, resources, deltas, digests, documents }, chained);
}

async function writeRows(
  database: Database,
  trx: Tx,
  {
    rows,
    resources,
    deltas,
    digests,
    documents,
  }: {
    rows: AuditEntryTable[];
    resources: AuditResourceTable[];
    deltas: CountDeltas;
    /** The rows' content digests for the chain, when prepared already. */
    digests?: readonly string[];
    /** The rows' full-text documents, when prepared already (see `insertEntryRows`). */
    documents?: readonly (string | null | undefined)[];
  },
  chained: boolean,
): Promise<void> {
  if (chained) await chainRows(database, trx, rows, digests);
  await insertEntryRows(database, trx, rows, documents);
  await database.bulkInsert(trx, 'audit_resources', resources);
  await deltas.apply(database, trx);
}
