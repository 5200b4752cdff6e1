import { randomUUID } from 'node:crypto';
import { ErrorCode } from '../../core/contracts/error-codes.js';
import { conflict, validationProblem } from '../../core/http/problem.js';
import type { ManagementDeps } from '../common/management-deps.js';
import { requireRecord } from '../common/records.js';
import { DEFAULT_AGENT_GROUP_ID } from '../environments/agent-group-service.js';
import type { ApiRecord, ApiSourceRecord, ConfigData } from '../../core/model/config-model.js';
import { assertNoOverlap } from './api-overlap.js';
import { writeDocument } from './api-document-files.js';
import type { ConfigChange } from '../../core/config-store/config-store.js';
import { carryPassthroughEntries, type DroppedEntry } from './carry-passthrough-entries.js';
import { summarizeChanges, type ChangeSummary } from './change-summary.js';
import { envShapes } from '../../core/passthrough/passthrough-references.js';
import { definitionProblem, loadProblem } from './import-problems.js';
import {
  appendRevision,
  detailsOf,
  newRevisionFiles,
  nextApiRecord,
  revisionRecord,
  snapshotFileFor,
  writeDetails,
  type NewRevision,
} from './revision-commit.js';
import { API_DOCUMENT_LIMIT } from '../../core/contracts/api-schemas.js';
import { DEFAULT_FETCH_LIMITS, type FetchLimits } from './import-pipeline/safe-fetch.js';
import type { ImportInput, ImportProgress, PreparedDocument } from './import-pipeline/import-types.js';
import type { ImportRunner } from './import-pipeline/import-runner.js';
import type { DefinitionIssue, SkippedOperation } from './openapi/index.js';

export interface ApiDocumentUpload {
  /** The request body's chunks, as received (see ImportInput). */
  content: readonly Uint8Array[];
  /** As sent (`Content-Type` without parameters); the format's own type when absent. */
  mediaType?: string;
  fileName?: string;
}

export interface ImportOutcome {
  api: ApiRecord;
  warnings: DefinitionIssue[];
  skipped: SkippedOperation[];
}

export interface ReimportOutcome extends ImportOutcome {
  kept: string[];
  added: string[];
  removed: string[];
  droppedPassthroughEntries: DroppedEntry[];
}

/**
 * Imports and re-imports API definitions; used by the management API and by `gatehouse api import`. Reading
 * and validating a description (`prepare`) runs through the runner (a worker thread in the server); applying it
 * (`create`, `reimport`) makes a new revision of the API.
 */
export class ApiImportService {
  constructor(
    private readonly deps: ManagementDeps,
    private readonly runner: ImportRunner,
    private readonly fetchLimits: FetchLimits = DEFAULT_FETCH_LIMITS,
  ) {}

  /** Reads and validates a description; throws the problem answer when it can't be used. */
  async prepare(
    input: ImportInput,
    onProgress?: (progress: ImportProgress) => void,
    signal?: AbortSignal,
  ): Promise<PreparedDocument> {
    const request = { input, maxBytes: API_DOCUMENT_LIMIT, fetchLimits: { ...this.fetchLimits } };
    const outcome = await this.runner.run(request, onProgress, signal);
    if (outcome.ok) return outcome.prepared;
    if (outcome.kind === 'refused') throw definitionProblem(outcome.errors);
    throw loadProblem(outcome);
  }

  /** The API whose current revision came from this URL, if any (a new import from it re-imports that API). */
  findBySourceUrl(url: string): ApiRecord | undefined {
    return this.deps.store.data.apis.find((api) => api.source?.kind === 'url' && api.source.url === url);
  }

  async create(
    prepared: PreparedDocument,
    options: { agentGroupId?: string; name?: string } = {},
  ): Promise<ImportOutcome> {
    const { definition } = prepared;
    const agentGroupId = options.agentGroupId ?? DEFAULT_AGENT_GROUP_ID;
    this.requireAgentGroup(this.deps.store.data, agentGroupId);
    const id = randomUUID();
    const at = this.deps.now().toISOString();
    const revision = this.newRevision(id, prepared, at);
    const api: ApiRecord = {
      id,
      name: options.name ?? (definition.title.trim() || nameFromSource(prepared.source)),
      version: definition.version,
      specVersion: definition.specVersion,
      ...(definition.description !== undefined ? { description: definition.description } : {}),
      basePath: definition.basePath,
      ...(definition.serverUrl !== undefined ? { serverUrl: definition.serverUrl } : {}),
      agentGroupIds: [agentGroupId],
      documentFile: revision.files.documentFile,
      documentMediaType: prepared.mediaType,
      operations: revision.details.operations,
      revision: 1,
      source: prepared.source,
      revisions: [revisionRecord(1, revision)],
      importedAt: at,
      updatedAt: at,
    };
    await this.commitWithFiles(prepared, revision, (data) => {
      this.requireAgentGroup(data, agentGroupId);
      assertNoOverlap(data, api);
      data.apis.push(api);
    });
    return { api, warnings: definition.warnings, skipped: definition.skipped };
  }

  /** What a re-import of `prepared` would change in the API. */
  previewReimport(apiId: string, prepared: PreparedDocument): ChangeSummary {
    const data = this.deps.store.data;
    const api = requireRecord(data.apis, apiId, 'API');
    const next = {
      basePath: prepared.definition.basePath,
      operations: prepared.operations,
    };
    return summarizeChanges(data, api, next, this.deps.secretBox).summary;
  }

  /**
   * Makes `prepared` the API's new revision. The passthrough entries of operations that are still there are kept;
   * the others are dropped and reported (the replaced revision keeps the whole configuration, for a restore).
   * With `expectedRevision`, a re-import prepared against another revision of the API is refused (409).
   */
  async reimport(
    apiId: string,
    prepared: PreparedDocument,
    options: { name?: string; expectedRevision?: number } = {},
  ): Promise<ReimportOutcome> {
    requireRecord(this.deps.store.data.apis, apiId, 'API');
    const { definition } = prepared;
    const at = this.deps.now().toISOString();
    const revision = this.newRevision(apiId, prepared, at);
    return this.commitWithFiles(prepared, revision, async (data, { documents }) => {
      const api = requireRecord(data.apis, apiId, 'API');
      assertExpectedRevision(api, options.expectedRevision);
      const operations = revision.details.operations;
      const { diff } = summarizeChanges(
        data,
        api,
        { basePath: definition.basePath, operations },
        this.deps.secretBox,
      );
      const snapshotFile = await snapshotFileFor(documents, data, apiId);
      const next = nextApiRecord(
        api,
        {
          version: definition.version,
          specVersion: definition.specVersion,
          basePath: definition.basePath,
          serverUrl: definition.serverUrl,
          operations,
          documentFile: revision.files.documentFile,
          documentMediaType: prepared.mediaType,
          source: prepared.source,
        },
        at,
      );
      if (options.name !== undefined) next.name = options.name;
      assertNoOverlap(data, next);
      const dropped = appendRevision(api, next, revisionRecord(next.revision, revision), snapshotFile);
      for (const file of dropped) await documents.remove(file);
      let droppedPassthroughEntries: DroppedEntry[] = [];
      const passthrough = data.passthroughs.find((candidate) => candidate.apiId === apiId);
      if (passthrough) {
        const carried = carryPassthroughEntries(
          passthrough,
          diff,
          next,
          envShapes(data),
          this.deps.secretBox,
        );
        passthrough.operations = carried.operations;
        passthrough.revision += 1;
        passthrough.updatedAt = at;
        droppedPassthroughEntries = carried.dropped;
      }
      Object.assign(api, next);
      return {
        api,
        warnings: definition.warnings,
        skipped: definition.skipped,
        kept: diff.kept.map(({ after }) => after.key),
        added: diff.added.map((operation) => operation.key),
        removed: diff.removed.map((operation) => operation.key),
        droppedPassthroughEntries,
      };
    });
  }

  /** Upload, then create: the synchronous `POST /api/v1/apis` and offline use. */
  async importDocument(upload: ApiDocumentUpload, options: { agentGroupId?: string; name?: string } = {}) {
    return this.create(await this.prepare(uploadInput(upload)), options);
  }

  /** Upload, then re-import: the synchronous `PUT /api/v1/apis/{id}/document`. */
  async reimportDocument(apiId: string, upload: ApiDocumentUpload, options: { name?: string } = {}) {
    requireRecord(this.deps.store.data.apis, apiId, 'API');
    return this.reimport(apiId, await this.prepare(uploadInput(upload)), options);
  }

  private newRevision(apiId: string, prepared: PreparedDocument, at: string): NewRevision {
    const { definition } = prepared;
    const format = prepared.mediaType.includes('json') ? 'json' : 'yaml';
    const { operations } = prepared;
    return {
      files: newRevisionFiles(apiId, format),
      at,
      source: prepared.source,
      mediaType: prepared.mediaType,
      sha256: prepared.sha256,
      details: detailsOf(definition, operations, prepared.bundledFiles),
      version: definition.version,
      specVersion: definition.specVersion,
      basePath: definition.basePath,
    };
  }

  private requireAgentGroup(data: Readonly<ConfigData>, agentGroupId: string): void {
    if (!data.agentGroups.some((group) => group.id === agentGroupId)) {
      throw validationProblem({ agentGroupId: [`No agent group has id ${agentGroupId}.`] });
    }
  }

  /** Writes the revision's documents and the record that names them in one transaction: both or neither. */
  private commitWithFiles<R>(
    prepared: PreparedDocument,
    revision: NewRevision,
    mutate: (data: ConfigData, change: ConfigChange) => R | Promise<R>,
  ): Promise<R> {
    return this.deps.store.update(async (data, change) => {
      const { stored } = prepared;
      await writeDocument(
        change.documents,
        revision.files.documentFile,
        stored?.document ?? prepared.content,
      );
      if (stored) await writeDocument(change.documents, revision.files.detailsFile, stored.details);
      else await writeDetails(change.documents, revision.files, revision.details);
      return mutate(data, change);
    });
  }
}

export function uploadInput(upload: ApiDocumentUpload): ImportInput {
  return {
    kind: 'bytes',
    content: upload.content,
    ...(upload.mediaType ? { mediaType: upload.mediaType } : {}),
    ...(upload.fileName ? { fileName: upload.fileName } : {}),
  };
}

export function assertExpectedRevision(api: ApiRecord, expected: number | undefined): void {
  if (expected !== undefined && api.revision !== expected) {
    throw conflict(
      ErrorCode.GH_ERR_API_CHANGED,
      `The API is at revision ${api.revision} now, not ${expected}: look at the changes again before applying them.`,
      { currentRevision: api.revision },
    );
  }
}

/** A name for an API whose description has no title: its file name or the last part of its URL. */
export function nameFromSource(source: ApiSourceRecord): string {
  const raw = source.kind === 'url' && source.url ? new URL(source.url).hostname : (source.name ?? '');
  const stem = raw.replace(/\.(json|ya?ml)$/i, '').trim();
  return stem === '' ? 'Untitled API' : stem;
}
