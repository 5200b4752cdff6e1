import type { AuditEntryTable } from '../storage/schema.js';

/** What an entry's row holds of it, known before its id is. */
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
 * Entries prepared for an import (`prepareImportBatch`), in order, as columns: entry k is index k of every array
 * but the resources'. Normalized, digested and serialized, plain data only, so that a worker thread prepares them
 * while the writer writes the chunk before; as columns, so that posting a batch clones a few arrays rather than an
 * object per entry, and the writer binds the values from them without building a row object per entry.
 */
export interface ImportBatch {
  count: number;
  timeMs: number[];
  /** `contentKey`'s digest. */
  hash: string[];
  /** The entry's JSON without its id. */
  json: string[];
  actionName: string[];
  userName: string[];
  /** `nameKey` of the names. */
  actionKey: string[];
  userKey: string[];
  category: AuditEntryTable['category'][];
  agentGroupId: (string | null)[];
  instance: (string | null)[];
  /** The chain's content digest of `json` (`contentDigest`): the part of its link that needs no place in it. */
  chainDigest: string[];
  /** SQLite's full-text document of the entry (`searchDocumentOf`); undefined when SQLite must build it. */
  searchDocument: (string | null | undefined)[];
  /** Entry k's resources to keep are those from `resourceStart[k]` to `resourceStart[k + 1]` (count + 1 items). */
  resourceStart: number[];
  resourceType: string[];
  resourceId: string[];
  /** Set when the entry after these is not one: the import stops there. */
  invalid?: Error;
}
