import { randomUUID } from 'node:crypto';
import { validationProblem, type HttpProblem } from '../../core/http/problem.js';
import { envShapes } from '../../core/passthrough/passthrough-references.js';
import type { ManagementDeps } from '../common/management-deps.js';
import { requireRecord } from '../common/records.js';
import { DEFAULT_AGENT_GROUP_ID } from '../environments/agent-group-service.js';
import type { ApiOperationRecord, ApiRecord, ConfigData } from '../../core/model/config-model.js';
import { assertNoOverlap } from './api-overlap.js';
import {
  mediaTypeForFormat,
  newDocumentFileName,
  removeDocument,
  writeDocument,
} from './api-document-files.js';
import { carryPassthroughEntries, type DroppedEntry } from './carry-passthrough-entries.js';
import {
  diffOperations,
  parseApiDefinition,
  type ApiDefinition,
  type DefinitionIssue,
  type OperationsDiff,
} from './openapi/index.js';
import { API_DOCUMENT_LIMIT } from './api-schemas.js';

export interface ApiDocumentUpload {
  content: Buffer;
  /** As sent (`Content-Type` without parameters); the format's own type when absent. */
  mediaType?: string;
}

export interface ImportOutcome {
  api: ApiRecord;
  warnings: DefinitionIssue[];
}

export interface ReimportOutcome extends ImportOutcome {
  kept: string[];
  added: string[];
  removed: string[];
  droppedPassthroughEntries: DroppedEntry[];
}

/** Imports and re-imports API definitions; used by the management API and by `gatehouse api import`. */
export class ApiImportService {
  constructor(private readonly deps: ManagementDeps) {}

  async importDocument(
    upload: ApiDocumentUpload,
    options: { agentGroupId?: string; name?: string } = {},
  ): Promise<ImportOutcome> {
    const definition = parseOrThrow(upload.content);
    const agentGroupId = options.agentGroupId ?? DEFAULT_AGENT_GROUP_ID;
    if (!this.deps.store.data.agentGroups.some((group) => group.id === agentGroupId)) {
      throw validationProblem({ agentGroupId: [`No agent group has id ${agentGroupId}.`] });
    }
    const id = randomUUID();
    const at = this.deps.now().toISOString();
    const api: ApiRecord = {
      id,
      name: options.name ?? definition.title,
      ...definitionFields(definition),
      ...(definition.description !== undefined ? { description: definition.description } : {}),
      agentGroupIds: [agentGroupId],
      documentFile: newDocumentFileName(id, definition.format),
      documentMediaType: upload.mediaType ?? mediaTypeForFormat(definition.format),
      revision: 1,
      importedAt: at,
      updatedAt: at,
    };
    await this.commitWithDocument(api.documentFile, upload.content, (data) => {
      if (!data.agentGroups.some((group) => group.id === agentGroupId)) {
        throw validationProblem({ agentGroupId: [`No agent group has id ${agentGroupId}.`] });
      }
      assertNoOverlap(data, api);
      data.apis.push(api);
    });
    return { api, warnings: definition.warnings };
  }

  /**
   * Replaces an API's document with a new version. The passthrough entries of operations that are still there
   * are kept; the others are dropped and reported.
   */
  async reimportDocument(
    apiId: string,
    upload: ApiDocumentUpload,
    options: { name?: string } = {},
  ): Promise<ReimportOutcome> {
    requireRecord(this.deps.store.data.apis, apiId, 'API');
    const definition = parseOrThrow(upload.content);
    const documentFile = newDocumentFileName(apiId, definition.format);
    let previousFile = '';
    const outcome = await this.commitWithDocument(documentFile, upload.content, (data) => {
      const api = requireRecord(data.apis, apiId, 'API');
      previousFile = api.documentFile;
      const fields = definitionFields(definition);
      const diff = diffOperations<ApiOperationRecord>(api.operations, fields.operations);
      const next: ApiRecord = {
        ...api,
        ...fields,
        ...(options.name !== undefined ? { name: options.name } : {}),
        documentFile,
        documentMediaType: upload.mediaType ?? mediaTypeForFormat(definition.format),
        revision: api.revision + 1,
        updatedAt: this.deps.now().toISOString(),
      };
      if (definition.serverUrl === undefined) delete next.serverUrl;
      assertNoOverlap(data, next);
      const droppedPassthroughEntries = this.carryPassthrough(data, diff, next);
      Object.assign(api, next);
      return {
        api,
        warnings: definition.warnings,
        kept: diff.kept.map(({ after }) => after.key),
        added: diff.added.map((operation) => operation.key),
        removed: diff.removed.map((operation) => operation.key),
        droppedPassthroughEntries,
      };
    });
    if (previousFile) {
      await removeDocument(this.deps.store.documents, previousFile, this.deps.logger);
    }
    return outcome;
  }

  private carryPassthrough(
    data: ConfigData,
    diff: OperationsDiff<ApiOperationRecord>,
    api: ApiRecord,
  ): DroppedEntry[] {
    const passthrough = data.passthroughs.find((candidate) => candidate.apiId === api.id);
    if (!passthrough) return [];
    const carried = carryPassthroughEntries(passthrough, diff, api, envShapes(data), this.deps.secretBox);
    passthrough.operations = carried.operations;
    passthrough.revision += 1;
    passthrough.updatedAt = api.updatedAt;
    return carried.dropped;
  }

  /** Writes the document, then commits the record that names it; a refused commit removes the file again. */
  private async commitWithDocument<R>(
    fileName: string,
    content: Buffer,
    mutate: (data: ConfigData) => R,
  ): Promise<R> {
    const { store, logger } = this.deps;
    await writeDocument(store.documents, fileName, content);
    try {
      return await store.update(mutate);
    } catch (error) {
      await removeDocument(store.documents, fileName, logger);
      throw error;
    }
  }
}

function parseOrThrow(content: Buffer): ApiDefinition {
  const result = parseApiDefinition(content, { maxBytes: API_DOCUMENT_LIMIT });
  if (result.ok) return result.definition;
  throw definitionProblem(result.errors);
}

/** 400 with the document's errors keyed by JSON pointer (`""` is the whole document, for syntax errors). */
export function definitionProblem(issues: readonly DefinitionIssue[]): HttpProblem {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) (errors[issue.pointer] ??= []).push(issue.message);
  return validationProblem(
    errors,
    'The document is not a valid OpenAPI 3.1, OpenAPI 3.0 or Swagger 2.0 definition.',
  );
}

function definitionFields(definition: ApiDefinition) {
  const operations: ApiOperationRecord[] = definition.operations.map((operation) => ({
    key: `${operation.method} ${operation.path}`,
    method: operation.method,
    path: operation.path,
    ...(operation.operationId !== undefined ? { operationId: operation.operationId } : {}),
    ...(operation.summary !== undefined ? { summary: operation.summary } : {}),
    pathParameters: operation.pathParameters,
  }));
  return {
    version: definition.version,
    specVersion: definition.specVersion,
    basePath: definition.basePath,
    ...(definition.serverUrl !== undefined ? { serverUrl: definition.serverUrl } : {}),
    operations,
  };
}
