/**
 * Payloads of the API definitions endpoints (`/api/v1/apis`), as the console uses them; schema names of the
 * OpenAPI document at `/swagger/v1/swagger.json` in the comments.
 */

export type OpenApiVersion = '3.2' | '3.1' | '3.0' | '2.0';

/** An operation of an API definition. */
export interface ApiOperation {
  /** `METHOD /path`: the operation's identity across re-imports. */
  key: string;
  method: string;
  path: string;
  operationId?: string;
  summary?: string;
  pathParameters: string[];
  /** Query values or headers that tell the operation apart from others on its URL (`/#Action=List`). */
  requestMatch?: { query?: MatchCondition[]; headers?: MatchCondition[] };
}

export interface MatchCondition {
  name: string;
  value?: string;
}

/** Where an API's current document came from. */
export interface ApiSource {
  kind: 'upload' | 'file' | 'url';
  name?: string;
  url?: string;
}

/** `ApiSummary` — GET /api/v1/apis (no operations). */
export interface ApiSummary {
  id: string;
  name: string;
  version: string;
  specVersion: OpenApiVersion;
  description?: string;
  /** From the first server URL (or Swagger 2.0 basePath). */
  basePath: string;
  serverUrl?: string;
  agentGroupIds: string[];
  operationCount: number;
  revision: number;
  source?: ApiSource;
  /** Warnings about the current revision's document. */
  warningCount: number;
  /** Operations of the document that are not exposed. */
  skippedCount: number;
  /** The Passthrough configuration, when there is one. */
  passthroughId: string | null;
  documentMediaType: string;
  importedAt: string;
  updatedAt: string;
}

/** `Api` — GET /api/v1/apis/{id}. */
export interface ApiDefinition extends ApiSummary {
  operations: ApiOperation[];
}

/** A warning or error about the document, located by its JSON pointer (`""` is the whole document). */
export interface DefinitionIssue {
  pointer: string;
  message: string;
}

/** `SkippedOperation`: listed in the document, not exposed, and why. */
export interface SkippedOperation {
  method: string;
  path: string;
  pointer: string;
  reason: string;
}

/** `ApiImportResult` — POST /api/v1/apis (201). */
export interface ApiImportResult {
  api: ApiDefinition;
  warnings: DefinitionIssue[];
  skipped: SkippedOperation[];
}

/** `ApiReimportResult` — PUT /api/v1/apis/{id}/document. */
export interface ApiReimportResult {
  api: ApiDefinition;
  /** Operation keys in both versions (new spelling). */
  kept: string[];
  added: string[];
  removed: string[];
  /** Passthrough entries not kept: their operation is gone or their templates no longer fit it. */
  droppedPassthroughEntries: { operation: string; reason: string }[];
  warnings: DefinitionIssue[];
  skipped: SkippedOperation[];
}

/** `ApiChangeSummary`: what a re-import or a restore would change. */
export interface ApiChangeSummary {
  fromRevision: number;
  basePath: { before: string; after: string };
  added: string[];
  removed: string[];
  changed: { before: string; after: string; changes: string[] }[];
  keptCount: number;
  droppedPassthroughEntries: { operation: string; reason: string }[];
  /** Restores only: what happens to the passthrough configuration. */
  passthrough?: 'restored' | 'removed' | 'none';
}

export type ImportPhase = 'downloading' | 'parsing' | 'resolving' | 'validating';

/** `ApiImportJob` — /api/v1/api-imports/{id}: a description read in the background, not applied yet. */
export interface ApiImportJob {
  id: string;
  state: 'running' | 'ready' | 'failed' | 'cancelled';
  progress: { phase: ImportPhase; done?: number; total?: number } | null;
  source: ApiSource;
  startedAt: string;
  result?: {
    title: string;
    version: string;
    specVersion: string;
    basePath: string;
    serverUrl?: string;
    operationCount: number;
    warnings: DefinitionIssue[];
    skipped: SkippedOperation[];
    bundledFiles: string[];
    documentBytes: number;
  };
  existingApi?: { id: string; name: string; revision: number };
  changes?: ApiChangeSummary;
  problem?: { status: number; detail?: string; errors?: Record<string, string[]>; [member: string]: unknown };
}

/** `ApiRevision` — /api/v1/apis/{id}/revisions. */
export interface ApiRevision {
  revision: number;
  current: boolean;
  importedAt: string;
  source: ApiSource;
  version: string;
  specVersion: string;
  basePath: string;
  operationCount: number;
  warningCount: number;
  skippedCount: number;
  restoredFrom?: number;
  hasPassthrough: boolean;
  restorable: boolean;
}

export interface ApiRevisionDetails extends ApiRevision {
  warnings: DefinitionIssue[];
  skipped: SkippedOperation[];
  bundledFiles: string[];
}

/** `ModifyApi` — PATCH /api/v1/apis/{id}; `description: null` removes it. */
export interface ModifyApi {
  name?: string;
  description?: string | null;
  agentGroupIds?: string[];
}

/** What a 409 on import names: the API whose base path overlaps. */
export interface ConflictingApi {
  id: string;
  name: string;
  basePath: string;
}

/** The largest document the server accepts (25 MiB). */
export const API_DOCUMENT_LIMIT_BYTES = 25 * 1024 * 1024;

/** Bytes sent so far of an upload; `total` is the body's size. */
export interface UploadProgress {
  loaded: number;
  total: number;
}
