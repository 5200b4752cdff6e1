import type { NewAuditEntry } from '../audit-entry.js';
import { normalizeEntry } from '../normalize-entry.js';
import { contentDigest } from '../chain/chain-hash.js';
import type { ImportBatch, ImportEntry } from '../import-batch.js';
import { contentKey, entryFields, resourcesToKeep } from './audit-rows.js';
import { searchDocumentOf } from './search-document.js';

/** Throws `InvalidAuditEntryError` for an entry that is not valid. */
export function prepareImportEntry(input: NewAuditEntry): ImportEntry {
  const normalized = normalizeEntry(input);
  const fields = entryFields(normalized, contentKey(normalized.entry, normalized.timeMs));
  // Every field named in one literal, not `fields` spread and the rest added: one shape for every entry, built at
  // once (the spread copied property by property, through the shapes in between).
  return {
    timeMs: fields.timeMs,
    hash: fields.hash,
    json: fields.json,
    actionName: fields.actionName,
    userName: fields.userName,
    actionKey: fields.actionKey,
    userKey: fields.userKey,
    category: fields.category,
    agentGroupId: fields.agentGroupId,
    instance: fields.instance,
    resources: resourcesToKeep(normalized.entry),
    chainDigest: contentDigest(fields.json),
    searchDocument: searchDocumentOf(normalized.entry.parameters),
  };
}

/** Prepares a batch of entries, stopping at the first that is not valid. */
export function prepareImportBatch(inputs: readonly NewAuditEntry[]): ImportBatch {
  const entries: ImportEntry[] = [];
  for (const input of inputs) {
    try {
      entries.push(prepareImportEntry(input));
    } catch (error) {
      return { entries, invalid: error instanceof Error ? error : new Error(String(error)) };
    }
  }
  return { entries };
}
