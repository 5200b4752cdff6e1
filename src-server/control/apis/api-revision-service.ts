import { randomUUID } from 'node:crypto';
import type { PassthroughRestore } from '../../core/contracts/api-import-schemas.js';
import { ErrorCode } from '../../core/contracts/error-codes.js';
import { conflict, notFound } from '../../core/http/problem.js';
import type { ManagementDeps } from '../common/management-deps.js';
import { requireRecord } from '../common/records.js';
import type {
  ApiRecord,
  ApiRevisionRecord,
  ConfigData,
  PassthroughRecord,
} from '../../core/model/config-model.js';
import { assertNoOverlap } from './api-overlap.js';
import {
  copyDocument,
  newDocumentFileName,
  newSidecarFileName,
  writeJsonDocument,
} from './api-document-files.js';
import { assertExpectedRevision, type ReimportOutcome } from './api-import-service.js';
import {
  findRevision,
  readPassthroughSnapshot,
  readRevisionDetails,
  revisionsOf,
  type ApiRevisionDetails,
  type PassthroughSnapshot,
} from './api-revisions.js';
import { summarizeChanges, type ChangeSummary } from './change-summary.js';
import { diffOperations } from './openapi/diff-operations.js';
import { appendRevision, nextApiRecord, snapshotFileFor } from './revision-commit.js';

export interface RestorePreview extends ChangeSummary {
  passthrough: PassthroughRestore;
}

/** An API's revisions: listing, reading, and restoring one with the passthrough configuration it had. */
export class ApiRevisionService {
  constructor(private readonly deps: ManagementDeps) {}

  list(apiId: string): { api: ApiRecord; revisions: ApiRevisionRecord[] } {
    const api = requireRecord(this.deps.store.data.apis, apiId, 'API');
    return { api, revisions: [...revisionsOf(api)].reverse() };
  }

  async get(
    apiId: string,
    revision: number,
  ): Promise<{ api: ApiRecord; revision: ApiRevisionRecord; details: ApiRevisionDetails }> {
    const api = requireRecord(this.deps.store.data.apis, apiId, 'API');
    const found = this.require(api, revision);
    return {
      api,
      revision: found,
      details: await readRevisionDetails(this.deps.store.documents, api, found),
    };
  }

  async previewRestore(apiId: string, revision: number): Promise<RestorePreview> {
    const { api, target, details, snapshot } = await this.load(apiId, revision);
    const data = this.deps.store.data;
    const { summary } = summarizeChanges(
      data,
      api,
      { basePath: target.basePath, operations: details.operations },
      this.deps.secretBox,
    );
    const current = data.passthroughs.find((candidate) => candidate.apiId === apiId);
    return {
      ...summary,
      droppedPassthroughEntries: droppedBy(current, snapshot, revision),
      passthrough: snapshot ? 'restored' : current ? 'removed' : 'none',
    };
  }

  /**
   * Makes an earlier revision current again, as a new revision: its document, its operations and the passthrough
   * configuration it had when it was replaced (none if it had none). What is replaced is kept as a revision too.
   */
  async restore(
    apiId: string,
    revision: number,
    options: { expectedRevision?: number } = {},
  ): Promise<ReimportOutcome & { passthrough: PassthroughRestore }> {
    const { target, details, snapshot } = await this.load(apiId, revision);
    const documentFile = newDocumentFileName(apiId, target.documentFile.endsWith('.json') ? 'json' : 'yaml');
    const detailsFile = newSidecarFileName(apiId, 'details');
    // The copies, the snapshot of what is replaced and the new record commit together, or none of them.
    return this.deps.store.update(async (data, { documents }) => {
      await copyDocument(documents, target.documentFile, documentFile);
      await writeJsonDocument(documents, detailsFile, details);
      const current = requireRecord(data.apis, apiId, 'API');
      assertExpectedRevision(current, options.expectedRevision);
      const at = this.deps.now().toISOString();
      const snapshotFile = await snapshotFileFor(documents, data, apiId);
      const next = nextApiRecord(
        current,
        {
          version: target.version,
          specVersion: target.specVersion,
          basePath: target.basePath,
          serverUrl: details.serverUrl,
          operations: details.operations,
          documentFile,
          documentMediaType: target.documentMediaType,
          source: target.source,
        },
        at,
      );
      assertNoOverlap(data, next);
      const record: ApiRevisionRecord = {
        ...target,
        revision: next.revision,
        importedAt: at,
        documentFile,
        detailsFile,
        restoredFrom: target.revision,
      };
      delete record.passthroughFile;
      for (const file of appendRevision(current, next, record, snapshotFile)) await documents.remove(file);
      const passthroughBefore = data.passthroughs.find((candidate) => candidate.apiId === apiId);
      const dropped = droppedBy(passthroughBefore, snapshot, revision);
      const passthrough = restorePassthrough(data, apiId, snapshot, at);
      const diff = diffOperations(current.operations, details.operations);
      Object.assign(current, next);
      return {
        api: current,
        warnings: details.warnings,
        skipped: details.skipped,
        kept: diff.kept.map(({ after }) => after.key),
        added: diff.added.map((operation) => operation.key),
        removed: diff.removed.map((operation) => operation.key),
        droppedPassthroughEntries: dropped,
        passthrough,
      };
    });
  }

  private async load(apiId: string, revision: number) {
    const api = requireRecord(this.deps.store.data.apis, apiId, 'API');
    const target = this.require(api, revision);
    if (target.revision === api.revision)
      throw conflict(
        ErrorCode.GH_ERR_REVISION_NOT_RESTORABLE,
        `Revision ${revision} is the current one already.`,
      );
    if (target.detailsFile === undefined)
      throw conflict(
        ErrorCode.GH_ERR_REVISION_NOT_RESTORABLE,
        `Revision ${revision} was imported by an earlier version of Gatehouse and cannot be restored.`,
      );
    const { documents } = this.deps.store;
    const details = await readRevisionDetails(documents, api, target);
    const snapshot = await readPassthroughSnapshot(documents, target);
    return { api, target, details, snapshot };
  }

  private require(api: ApiRecord, revision: number): ApiRevisionRecord {
    const found = findRevision(api, revision);
    if (!found)
      throw notFound(
        `The API ${api.name} has no revision ${revision} (the last ${revisionsOf(api).length} are kept).`,
      );
    return found;
  }
}

function droppedBy(
  current: PassthroughRecord | undefined,
  snapshot: PassthroughSnapshot | undefined,
  revision: number,
) {
  if (!current) return [];
  const kept = snapshot?.operations ?? {};
  return Object.keys(current.operations)
    .filter((key) => !Object.hasOwn(kept, key))
    .map((operation) => ({
      operation,
      reason: `revision ${revision} had no entry for it (the entry is kept with the revision it replaces)`,
    }));
}

/** Inside a store update: the passthrough configuration becomes the snapshot (or goes, when there is none). */
function restorePassthrough(
  data: ConfigData,
  apiId: string,
  snapshot: PassthroughSnapshot | undefined,
  at: string,
): PassthroughRestore {
  const index = data.passthroughs.findIndex((candidate) => candidate.apiId === apiId);
  if (!snapshot) {
    if (index === -1) return 'none';
    data.passthroughs.splice(index, 1);
    return 'removed';
  }
  const existing = data.passthroughs[index];
  if (existing) {
    existing.operations = snapshot.operations;
    if (snapshot.allOperations) existing.allOperations = snapshot.allOperations;
    else delete existing.allOperations;
    existing.revision += 1;
    existing.updatedAt = at;
  } else {
    data.passthroughs.push({
      id: randomUUID(),
      apiId,
      ...(snapshot.allOperations ? { allOperations: snapshot.allOperations } : {}),
      operations: snapshot.operations,
      revision: 1,
      createdAt: at,
      updatedAt: at,
    });
  }
  return 'restored';
}
