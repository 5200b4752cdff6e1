import { gzipSync } from 'node:zlib';
import type { ApiOperationRecord } from '../../../core/model/config-model.js';
import type { ApiDefinition, DefinitionIssue, SkippedOperation } from '../openapi/index.js';

/** What an import keeps of the extracted definition; its operations are kept as the API record holds them. */
export type ImportedDefinition = Omit<ApiDefinition, 'operations'>;

/** What a revision's details file holds. */
export interface ApiRevisionDetails {
  title: string;
  description?: string;
  serverUrl?: string;
  operations: ApiOperationRecord[];
  warnings: DefinitionIssue[];
  skipped: SkippedOperation[];
  /** Files folded into the stored document (a multi-file description). */
  bundledFiles: string[];
}

/**
 * The API record's operations. Frozen: the configuration store's drafts skip a frozen value when they finish a
 * change, instead of walking every one of an API's (up to 65,000) operations looking for drafts inside.
 */
export function operationRecords(definition: Pick<ApiDefinition, 'operations'>): ApiOperationRecord[] {
  const records: ApiOperationRecord[] = definition.operations.map((operation) => ({
    key: `${operation.method} ${operation.path}`,
    method: operation.method,
    path: operation.path,
    ...(operation.requestMatch !== undefined ? { requestMatch: operation.requestMatch } : {}),
    ...(operation.operationId !== undefined ? { operationId: operation.operationId } : {}),
    ...(operation.summary !== undefined ? { summary: operation.summary } : {}),
    pathParameters: operation.pathParameters,
  }));
  Object.freeze(records);
  return records;
}

export function detailsOf(
  definition: ImportedDefinition,
  operations: ApiOperationRecord[],
  bundledFiles: string[],
): ApiRevisionDetails {
  return {
    title: definition.title,
    ...(definition.description !== undefined ? { description: definition.description } : {}),
    ...(definition.serverUrl !== undefined ? { serverUrl: definition.serverUrl } : {}),
    operations,
    warnings: definition.warnings,
    skipped: definition.skipped,
    bundledFiles,
  };
}

/** The stored forms of a revision's document and details file, gzip-compressed (the document store reads both). */
export interface StoredRevisionForms {
  document: Uint8Array;
  details: Uint8Array;
}

/**
 * Made by the import worker, so that the server's main thread neither serializes the details (megabytes of JSON
 * for a large API) nor writes more than a tenth of the bytes: the SQLite writes, the commit and a later removal
 * run on the main thread, and a 20 MB description stalled the gateway for hundreds of milliseconds.
 */
export function storedRevisionForms(
  definition: ImportedDefinition,
  operations: ApiOperationRecord[],
  content: Uint8Array,
  bundledFiles: string[],
): StoredRevisionForms {
  const details = detailsOf(definition, operations, bundledFiles);
  return {
    document: gzipSync(content, { level: STORED_GZIP_LEVEL }),
    details: gzipSync(JSON.stringify(details), { level: STORED_GZIP_LEVEL }),
  };
}

/** Level 3: a 20 MB description to a tenth in about 0.2 s, where level 6 takes three times as long for a bit less. */
const STORED_GZIP_LEVEL = 3;
