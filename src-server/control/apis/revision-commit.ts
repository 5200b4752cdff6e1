import type { DocumentStore } from '../../core/config-store/document-store.js';
import type { Logger } from '../../core/logging/logger.js';
import type { ApiRecord, ApiRevisionRecord, ApiSourceRecord } from '../../core/model/config-model.js';
import {
  newDocumentFileName,
  newSidecarFileName,
  removeDocument,
  writeJsonDocument,
} from './api-document-files.js';
import { filesOf, MAX_KEPT_REVISIONS, revisionsOf, snapshotOf } from './api-revisions.js';
import type { ApiRevisionDetails } from './import-pipeline/revision-details.js';
import type { ApiOperationRecord, ConfigData } from '../../core/model/config-model.js';

export { detailsOf, operationRecords } from './import-pipeline/revision-details.js';

/** The files a new revision writes before the record that names them is committed. */
export interface RevisionFiles {
  documentFile: string;
  detailsFile: string;
}

export function newRevisionFiles(apiId: string, format: 'json' | 'yaml'): RevisionFiles {
  return {
    documentFile: newDocumentFileName(apiId, format),
    detailsFile: newSidecarFileName(apiId, 'details'),
  };
}

export async function writeDetails(
  documents: DocumentStore,
  files: RevisionFiles,
  details: ApiRevisionDetails,
): Promise<void> {
  await writeJsonDocument(documents, files.detailsFile, details);
}

export interface NewRevision {
  files: RevisionFiles;
  at: string;
  source: ApiSourceRecord;
  mediaType: string;
  sha256: string;
  details: ApiRevisionDetails;
  version: string;
  specVersion: ApiRecord['specVersion'];
  basePath: string;
  restoredFrom?: number;
}

export function revisionRecord(revision: number, next: NewRevision): ApiRevisionRecord {
  return {
    revision,
    importedAt: next.at,
    source: next.source,
    documentFile: next.files.documentFile,
    documentMediaType: next.mediaType,
    documentSha256: next.sha256,
    detailsFile: next.files.detailsFile,
    version: next.version,
    specVersion: next.specVersion,
    basePath: next.basePath,
    operationCount: next.details.operations.length,
    warningCount: next.details.warnings.length,
    skippedCount: next.details.skipped.length,
    ...(next.restoredFrom !== undefined ? { restoredFrom: next.restoredFrom } : {}),
  };
}

/**
 * Inside a store update: makes `next` the API's current revision. The revision it replaces keeps the
 * passthrough configuration it had (written to `passthroughFile` beforehand by the caller, see
 * `snapshotFileFor`); revisions beyond MAX_KEPT_REVISIONS are dropped and their files returned for removal.
 */
export function appendRevision(
  current: Readonly<ApiRecord>,
  next: ApiRecord,
  record: ApiRevisionRecord,
  replacedPassthroughFile: string | undefined,
): string[] {
  // The last one is the revision being replaced.
  const revisions = revisionsOf(current).map((revision, index, all) =>
    index === all.length - 1 && replacedPassthroughFile !== undefined
      ? { ...revision, passthroughFile: replacedPassthroughFile }
      : revision,
  );
  revisions.push(record);
  const dropped = revisions.splice(0, Math.max(0, revisions.length - MAX_KEPT_REVISIONS));
  next.revisions = revisions;
  return dropped.flatMap(filesOf);
}

/** The API as its next revision makes it: the revision's definition fields, the rest (name, groups) kept. */
export function nextApiRecord(
  current: Readonly<ApiRecord>,
  revision: {
    version: string;
    specVersion: ApiRecord['specVersion'];
    basePath: string;
    serverUrl: string | undefined;
    operations: ApiOperationRecord[];
    documentFile: string;
    documentMediaType: string;
    source: ApiSourceRecord;
  },
  at: string,
): ApiRecord {
  const { serverUrl, ...fields } = revision;
  const next: ApiRecord = { ...current, ...fields, revision: current.revision + 1, updatedAt: at };
  if (serverUrl === undefined) delete next.serverUrl;
  else next.serverUrl = serverUrl;
  return next;
}

/** Writes the passthrough configuration the API has now, to be kept with the revision about to be replaced. */
export async function snapshotFileFor(
  documents: DocumentStore,
  data: Readonly<ConfigData>,
  apiId: string,
): Promise<string | undefined> {
  const passthrough = data.passthroughs.find((candidate) => candidate.apiId === apiId);
  if (!passthrough) return undefined;
  const file = newSidecarFileName(apiId, 'passthrough');
  await writeJsonDocument(documents, file, snapshotOf(passthrough));
  return file;
}

export async function removeFiles(
  documents: DocumentStore,
  files: readonly string[],
  logger: Logger,
): Promise<void> {
  for (const file of files) await removeDocument(documents, file, logger);
}
