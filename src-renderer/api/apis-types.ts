/**
 * Payloads of the API definitions endpoints (`/api/v1/apis`), as the console uses them; schema names of the
 * OpenAPI document at `/swagger/v1/swagger.json` in the comments.
 */

export type OpenApiVersion = '3.1' | '3.0' | '2.0';

/** An operation of an API definition. */
export interface ApiOperation {
  /** `METHOD /path`: the operation's identity across re-imports. */
  key: string;
  method: string;
  path: string;
  operationId?: string;
  summary?: string;
  pathParameters: string[];
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

/** `ApiImportResult` — POST /api/v1/apis (201). */
export interface ApiImportResult {
  api: ApiDefinition;
  warnings: DefinitionIssue[];
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
