import type {
  ApiRecord,
  ApiRevisionRecord,
  PassthroughRecord,
  StoredPassthroughEntry,
} from '../../core/model/config-model.js';
import type { DocumentStore } from '../../core/config-store/document-store.js';
import { readJsonDocument } from './api-document-files.js';
import type { ApiRevisionDetails } from './import-pipeline/revision-details.js';

export type { ApiRevisionDetails } from './import-pipeline/revision-details.js';

/** Revisions kept per API; older ones are removed with their files when a new one is added. */
export const MAX_KEPT_REVISIONS = 20;

/** What a revision's passthrough file holds: the configuration the API had when the revision was replaced. */
export interface PassthroughSnapshot {
  allOperations?: StoredPassthroughEntry;
  operations: Record<string, StoredPassthroughEntry>;
}

/** The API's revisions, oldest first; a record from before revisions existed has its current one only. */
export function revisionsOf(api: ApiRecord): ApiRevisionRecord[] {
  if (api.revisions && api.revisions.length > 0) return api.revisions;
  return [
    {
      revision: api.revision,
      importedAt: api.updatedAt,
      source: api.source ?? { kind: 'upload' },
      documentFile: api.documentFile,
      documentMediaType: api.documentMediaType ?? 'application/yaml',
      documentSha256: '',
      version: api.version,
      specVersion: api.specVersion,
      basePath: api.basePath,
      operationCount: api.operations.length,
      warningCount: 0,
      skippedCount: 0,
    },
  ];
}

export function findRevision(api: ApiRecord, revision: number): ApiRevisionRecord | undefined {
  return revisionsOf(api).find((candidate) => candidate.revision === revision);
}

/** The details of a revision; for one from before revisions existed, what the API record itself holds. */
export async function readRevisionDetails(
  documents: DocumentStore,
  api: ApiRecord,
  revision: ApiRevisionRecord,
): Promise<ApiRevisionDetails> {
  if (revision.detailsFile === undefined) {
    return {
      title: api.name,
      ...(api.serverUrl === undefined ? {} : { serverUrl: api.serverUrl }),
      operations: revision.revision === api.revision ? api.operations : [],
      warnings: [],
      skipped: [],
      bundledFiles: [],
    };
  }
  return (await readJsonDocument(documents, revision.detailsFile)) as ApiRevisionDetails;
}

export async function readPassthroughSnapshot(
  documents: DocumentStore,
  revision: ApiRevisionRecord,
): Promise<PassthroughSnapshot | undefined> {
  if (revision.passthroughFile === undefined) return undefined;
  return (await readJsonDocument(documents, revision.passthroughFile)) as PassthroughSnapshot;
}

export function snapshotOf(passthrough: PassthroughRecord): PassthroughSnapshot {
  return {
    ...(passthrough.allOperations ? { allOperations: passthrough.allOperations } : {}),
    operations: passthrough.operations,
  };
}

/** Every file a revision names. */
export function filesOf(revision: ApiRevisionRecord): string[] {
  return [revision.documentFile, revision.detailsFile, revision.passthroughFile].filter(
    (file): file is string => file !== undefined,
  );
}
