/** Public types of the API definition parser. */
import type { RequestMatch } from '../../../core/paths/request-match.js';

export type SpecVersion = '3.2' | '3.1' | '3.0' | '2.0';

export type HttpMethod = 'GET' | 'PUT' | 'POST' | 'DELETE' | 'OPTIONS' | 'HEAD' | 'PATCH' | 'TRACE';

export type DocumentFormat = 'json' | 'yaml';

/**
 * A problem found in the document. `pointer` is an RFC 6901 JSON pointer into the parsed document
 * (`""` is the whole document, used for syntax errors). For a missing required member the pointer
 * names the member that should be there, e.g. `/info/title`.
 */
export interface DefinitionIssue {
  pointer: string;
  message: string;
  /** 1-based; only for syntax errors. */
  line?: number;
  /** 1-based, in UTF-16 code units; only for syntax errors. */
  column?: number;
}

export interface ApiOperation {
  method: HttpMethod;
  /**
   * The path key exactly as written in the document, e.g. `/orders/{id}`, or with the query or fragment part
   * some publishers add (`/#X-Amz-Target=SQS.AddPermission`); the template is the part before `?` or `#`.
   */
  path: string;
  /** Query values or headers that tell this operation apart from others on the same path and method. */
  requestMatch?: RequestMatch;
  /** JSON pointer of the operation object (inside the `$ref` target when the path item is a reference). */
  pointer: string;
  operationId?: string;
  summary?: string;
  /** Names of the path template's parameters, in template order. */
  pathParameters: string[];
}

export interface ApiDefinition {
  specVersion: SpecVersion;
  format: DocumentFormat;
  title: string;
  version: string;
  description?: string;
  /**
   * OpenAPI 3.x: the first server URL with its variables replaced by their defaults, as written
   * (it may be relative, e.g. `/v1`). Swagger 2.0: `scheme://host` + `basePath` when `host` is given,
   * otherwise `basePath` when given. Absent when the document names no server.
   */
  serverUrl?: string;
  /**
   * The path part of the first server URL (variables replaced by their defaults), or Swagger 2.0
   * `basePath`. Normalised: leading `/`, no trailing `/`, no repeated `/`; `/` when empty or absent.
   * Percent-encoded as a URL path (a space is `%20`).
   */
  basePath: string;
  /** The operations exposed, in document order: paths as listed, methods as listed within each path item. */
  operations: ApiOperation[];
  /** Operations of the document that are not exposed, with the reason. */
  skipped: SkippedOperation[];
  warnings: DefinitionIssue[];
}

/** An operation listed in the document that the gateway does not expose. */
export interface SkippedOperation {
  /** Upper-case, as written when it is no HTTP method the gateway knows. */
  method: string;
  path: string;
  pointer: string;
  reason: string;
}

export interface ParseApiDefinitionOptions {
  /** Largest accepted input in bytes (UTF-8 size for strings). Default 25 MB (25 × 1024 × 1024). */
  maxBytes?: number;
  /** Warnings kept before the rest are counted in one last entry. Default 1,000. */
  maxWarnings?: number;
  /**
   * Where the document came from (an `https:` or `file:` URL), for relative server URLs and a Swagger 2.0
   * document without `host`. Without it, such a base path is `/`, with a warning.
   */
  documentUrl?: string;
  /** Called now and then while the paths are checked, for a progress bar. */
  onProgress?: (done: number, total: number) => void;
  /**
   * Largest number of values that YAML aliases may add to the document once expanded (protection
   * against alias bombs such as "billion laughs"). Default 5,000,000.
   */
  maxAliasExpansion?: number;
}

export type ParseApiDefinitionResult =
  | {
      ok: true;
      definition: ApiDefinition;
      /**
       * The parsed document, `$ref`s left as written. From YAML, an aliased node is one shared
       * object (the document is a DAG, never cyclic); do not mutate it.
       */
      document: unknown;
    }
  | {
      ok: false;
      /** Why nothing usable could be taken from the document. */
      errors: DefinitionIssue[];
      /** Warnings found on the way; may be empty. */
      warnings: DefinitionIssue[];
    };
