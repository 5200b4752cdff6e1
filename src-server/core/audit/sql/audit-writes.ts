import type { Database, Tx } from '../../storage/database.js';
import type { AuditEntryTable, AuditResourceTable } from '../../storage/schema.js';
import type { AuditEntry } from '../audit-entry.js';
import { withId, type NormalizedEntry } from '../normalize-entry.js';
import { CountDeltas } from './audit-count-deltas.js';
import { AUDIT_ENTRY_COLUMNS, resourcesToKeep, toEntryRow } from './audit-rows.js';
import type { ImportBatch } from '../import-batch.js';
import { chainRows, linkNext, lockHead, saveHead } from '../chain/chain-writes.js';
import { insertEntryRows, insertSearchDocuments } from './audit-search-index.js';

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

/** An import's entries to write: those at `indices` of a batch (the others were duplicates). */
export interface ImportPick {
  batch: ImportBatch;
  indices: readonly number[];
}

/** The columns an import binds once per chunk (`tenant`, `recorded_at`): a bit per column of `AUDIT_ENTRY_COLUMNS`. */
const IMPORT_SHARED =
  (1 << AUDIT_ENTRY_COLUMNS.indexOf('tenant')) | (1 << AUDIT_ENTRY_COLUMNS.indexOf('recorded_at'));
const RESOURCE_COLUMNS = ['entry_id', 'resource_type', 'resource_id'] as const;

/**
 * Writes an import's entries, prepared by `prepareImportBatch`, into one tenant's trail under the ids from
 * `firstId` on, in the order given: the same rows, chain links, documents, resources and counts as
 * `insertEntriesWithIds`, bound straight from the batches' columns (no row object per entry).
 */
export async function insertImportEntries(
  database: Database,
  trx: Tx,
  picks: readonly ImportPick[],
  firstId: number,
  recordedAt: number,
  tenant: string,
  chained: boolean,
): Promise<void> {
  const head = chained ? await lockHead(database, trx, tenant) : undefined;
  const values: unknown[] = [];
  const resources: unknown[] = [];
  const ids: number[] = [];
  const documents: (string | null | undefined)[] = [];
  const deltas = new CountDeltas();
  let id = firstId;
  for (const { batch, indices } of picks) {
    for (const k of indices) {
      let chainSeq: number | null = null;
      let chainHash: string | null = null;
      if (head) {
        linkNext(head, id, batch.chainDigest[k]!);
        chainSeq = head.seq;
        chainHash = head.hash;
      }
      values.push(
        id,
        tenant,
        batch.timeMs[k],
        batch.actionKey[k],
        batch.userKey[k],
        batch.category[k],
        batch.agentGroupId[k],
        batch.hash[k],
        batch.json[k],
        recordedAt,
        batch.instance[k],
        chainSeq,
        chainHash,
      );
      ids.push(id);
      documents.push(batch.searchDocument[k]);
      deltas.addNamed(
        tenant,
        batch.actionName[k]!,
        batch.userName[k]!,
        batch.actionKey[k]!,
        batch.userKey[k]!,
        batch.timeMs[k]!,
        1,
      );
      for (let r = batch.resourceStart[k]!; r < batch.resourceStart[k + 1]!; r++)
        resources.push(id, batch.resourceType[r], batch.resourceId[r]);
      id++;
    }
  }
  if (head) await saveHead(trx, tenant, head);
  await database.insertValues(trx, 'audit_entries', AUDIT_ENTRY_COLUMNS, values, ids.length, IMPORT_SHARED);
  await insertSearchDocuments(database, trx, ids, documents);
  await database.insertValues(trx, 'audit_resources', RESOURCE_COLUMNS, resources, resources.length / 3);
  await deltas.apply(database, trx);
}

async function writeRows(
  database: Database,
  trx: Tx,
  {
    rows,
    resources,
    deltas,
  }: {
    rows: AuditEntryTable[];
    resources: AuditResourceTable[];
    deltas: CountDeltas;
  },
  chained: boolean,
): Promise<void> {
  if (chained) await chainRows(database, trx, rows);
  await insertEntryRows(database, trx, rows);
  await database.bulkInsert(trx, 'audit_resources', resources);
  await deltas.apply(database, trx);
}
