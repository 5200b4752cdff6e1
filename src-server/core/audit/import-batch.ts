import type { AuditEntryTable, AuditResourceTable } from '../storage/schema.js';

/** What an entry's row holds of it, known before its id is: an import prepares these in a worker thread. */
export interface EntryFields {
  timeMs: number;
  /** `contentKey`'s digest. */
  hash: string;
  /** The entry's JSON without its id. */
  json: string;
  actionName: string;
  userName: string;
  /** `nameKey` of the names. */
  actionKey: string;
  userKey: string;
  category: AuditEntryTable['category'];
  agentGroupId: string | null;
  instance: string | null;
}

/**
 * An entry to import, as its write needs it: normalized, digested and serialized, plain data only, so that a worker
 * thread can prepare it while the writer writes the chunk before.
 */
export interface ImportEntry extends EntryFields {
  resources: Omit<AuditResourceTable, 'entry_id'>[];
  /** The chain's content digest of `json` (`contentDigest`): the part of its link that needs no place in it. */
  chainDigest: string;
  /** SQLite's full-text document of the entry (`searchDocumentOf`); undefined or absent when SQLite must build it. */
  searchDocument?: string | null;
}

/** Entries prepared for an import, in order; `invalid` when the entry after them is not one (the import stops). */
export interface ImportBatch {
  entries: readonly ImportEntry[];
  invalid?: Error;
}
