import type { NewAuditEntry } from '../audit-entry.js';
import { normalizeEntry } from '../normalize-entry.js';
import { contentDigest } from '../chain/chain-hash.js';
import type { ImportBatch } from '../import-batch.js';
import { contentKey, entryFields, resourcesToKeep } from './audit-rows.js';
import { searchDocumentOf } from './search-document.js';

function emptyBatch(): ImportBatch {
  return {
    count: 0,
    timeMs: [],
    hash: [],
    json: [],
    actionName: [],
    userName: [],
    actionKey: [],
    userKey: [],
    category: [],
    agentGroupId: [],
    instance: [],
    chainDigest: [],
    searchDocument: [],
    resourceStart: [0],
    resourceType: [],
    resourceId: [],
  };
}

/** Adds an entry to the batch's columns; throws `InvalidAuditEntryError`, before adding anything, if it is not valid. */
function addEntry(batch: ImportBatch, input: NewAuditEntry): void {
  const normalized = normalizeEntry(input);
  const fields = entryFields(normalized, contentKey(normalized.entry, normalized.timeMs));
  const searchDocument = searchDocumentOf(normalized.entry.parameters);
  const chainDigest = contentDigest(fields.json);
  for (const resource of resourcesToKeep(normalized.entry)) {
    batch.resourceType.push(resource.resource_type);
    batch.resourceId.push(resource.resource_id);
  }
  batch.resourceStart.push(batch.resourceType.length);
  batch.timeMs.push(fields.timeMs);
  batch.hash.push(fields.hash);
  batch.json.push(fields.json);
  batch.actionName.push(fields.actionName);
  batch.userName.push(fields.userName);
  batch.actionKey.push(fields.actionKey);
  batch.userKey.push(fields.userKey);
  batch.category.push(fields.category);
  batch.agentGroupId.push(fields.agentGroupId);
  batch.instance.push(fields.instance);
  batch.chainDigest.push(chainDigest);
  batch.searchDocument.push(searchDocument);
  batch.count++;
}

/** Prepares a batch of entries, stopping at the first that is not valid. */
export function prepareImportBatch(inputs: readonly NewAuditEntry[]): ImportBatch {
  const batch = emptyBatch();
  for (const input of inputs) {
    try {
      addEntry(batch, input);
    } catch (error) {
      batch.invalid = error instanceof Error ? error : new Error(String(error));
      return batch;
    }
  }
  return batch;
}
