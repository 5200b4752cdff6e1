import type { ImportPhase } from '../../../core/contracts/api-import-schemas.js';
import type { ApiOperationRecord, ApiSourceRecord } from '../../../core/model/config-model.js';
import type { DefinitionIssue } from '../openapi/index.js';
import type { FetchFailureReason, FetchLimits } from './safe-fetch.js';
import type { ImportedDefinition, StoredRevisionForms } from './revision-details.js';

/** Where the description comes from. */
export type ImportInput =
  | {
      kind: 'bytes';
      /**
       * One array, or a request body's chunks as the socket delivered them: those move to the import worker, which
       * joins them, so that the server's main thread never allocates (and first touches) one array of the whole.
       */
      content: Uint8Array | readonly Uint8Array[];
      fileName?: string;
      mediaType?: string;
    }
  | { kind: 'url'; url: string; allowPrivateAddress: boolean }
  /** A file on this machine (the CLI): sibling files its `$ref`s name are read too. */
  | { kind: 'file'; path: string };

export interface ImportRequest {
  input: ImportInput;
  maxBytes: number;
  fetchLimits: FetchLimits;
}

export interface ImportProgress {
  phase: ImportPhase;
  /** Paths checked, bytes loaded or files resolved so far; with `total`, a fraction. */
  done?: number;
  total?: number;
}

/** A description read, validated and ready to be applied as an API's new revision. */
export interface PreparedDocument {
  definition: ImportedDefinition;
  /** The API record's operations (frozen, see revision-details.ts). */
  operations: ApiOperationRecord[];
  /**
   * What is stored: the bytes as received, or the bundled JSON when sibling files were resolved. Empty when `stored`
   * is given (the import worker keeps the bytes: the main thread only writes `stored.document`).
   */
  content: Uint8Array;
  /** The size of `content` as prepared. */
  documentBytes: number;
  mediaType: string;
  sha256: string;
  source: ApiSourceRecord;
  /** The sibling files resolved into `content` (URLs or paths). */
  bundledFiles: string[];
  /** What to write instead of `content` and the serialized details: made by the import worker, off the main thread. */
  stored?: StoredRevisionForms;
}

export type PrepareOutcome =
  | { ok: true; prepared: PreparedDocument }
  | { ok: false; kind: 'refused'; errors: DefinitionIssue[]; warnings: DefinitionIssue[] }
  | {
      ok: false;
      kind: 'fetch';
      reason: FetchFailureReason;
      message: string;
      url: string;
      host?: string;
      address?: string;
    };
