import type { IncomingHttpHeaders } from 'node:http';
import type { CompiledPathTemplate } from '../../core/paths/path-template.js';
import type { RequestMatch } from '../../core/paths/request-match.js';
import { queryParameter } from '../../core/passthrough/forwarding/query-parameters.js';
import type { CompiledPassthroughEntry } from '../../core/passthrough/compile-entry.js';
import type { TemplateError } from '../../core/template/index.js';
import type { PassthroughEntry } from '../../core/model/config-model.js';
import type { CorsRules } from '../cors/cors.js';
import type { PathIndex } from './path-index.js';

/** Methods `All operations` forwards. TRACE would echo the headers the gateway added (credentials) back. */
export const ALL_OPERATIONS_METHODS: readonly string[] = [
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'OPTIONS',
];

/** The operation key monitoring shows when `All operations` handled a request. */
export const ALL_OPERATIONS_OPERATION = '*';

/** One effective passthrough entry, compiled once per configuration. */
export interface Endpoint {
  /**
   * `GET /orders/{id}`, or `*` for `All operations`. An operation of the document without an entry of its own
   * is served by `All operations` through a copy of that endpoint carrying the operation's key (monitoring
   * shows what matched).
   */
  operation: string;
  /** Served by the `All operations` entry (its own or for an operation without an entry). */
  viaAllOperations: boolean;
  entry: PassthroughEntry;
  /** Undefined when the entry does not compile against the group's environment (then `errors` says why). */
  compiled: CompiledPassthroughEntry | undefined;
  errors: readonly TemplateError[];
  /** What a client is told when the entry does not compile: the references that no longer exist, no internals. */
  unavailable: string | undefined;
  /** Undefined when CORS is off for the entry. */
  cors: CorsRules | undefined;
}

/** One operation at a path and method: its own template (parameter names may differ) and its conditions. */
export interface MethodRoute {
  endpoint: Endpoint;
  matcher: CompiledPathTemplate;
  /** Query values or headers the request must carry (`/#X-Amz-Target=…`); absent: any request. */
  requestMatch?: RequestMatch;
}

/** The operations whose templates match the same requests (`/a/{id}` and `/a/{x}` share one). */
export interface PathRoute {
  template: string;
  matcher: CompiledPathTemplate;
  /** Operations that have their own entry, by method; those with more conditions first. */
  byMethod: ReadonlyMap<string, readonly MethodRoute[]>;
  /** Every method answered at this path (own entries, plus all of them with `All operations`), for `Allow`. */
  servedMethods: readonly string[];
}

export interface ApiRoute {
  id: string;
  name: string;
  basePath: string;
  /** Decoded segments of the base path; `[]` for `/`. */
  baseSegments: readonly string[];
  /** Most specific template first (literal segments before parameters). */
  paths: readonly PathRoute[];
  /** The same templates, indexed for matching. */
  pathIndex: PathIndex<PathRoute>;
  allOperations: Endpoint | undefined;
  /**
   * With `All operations`: the document's operations that have no entry of their own, each with a copy of the
   * `All operations` endpoint named after it. Only consulted once routing has chosen `All operations`, so
   * routing itself is unchanged; it names the operation that matched.
   */
  coveredIndex: PathIndex<PathRoute> | undefined;
}

export type RouteResolution =
  | {
      kind: 'endpoint';
      api: ApiRoute;
      endpoint: Endpoint;
      /** The path below the base path, as received. */
      operationPath: string;
      pathParameters: Record<string, string>;
      /** Methods answered at this path, for a CORS preflight. */
      servedMethods: readonly string[];
    }
  | { kind: 'method-not-allowed'; api: ApiRoute; allow: readonly string[] }
  | { kind: 'unmatched'; api: ApiRoute | undefined };

const NO_PARAMETERS: Record<string, string> = Object.freeze({});

/** What routing reads of a request target (see `parseRequestTarget`). */
export interface RoutedTarget {
  /** As received, percent-encoded, without the query: `/` and the raw segments joined by `/`. */
  path: string;
  rawSegments: readonly string[];
  decodedSegments: readonly string[];
  /** As received, without `?`; read only for operations told apart by a query value. */
  query?: string;
}

/**
 * Finds the endpoint of a request: the API with the longest base path that is a segment-boundary prefix of
 * the path, then (as OpenAPI does) the most specific path template, then the method, then, for operations
 * told apart by a query value or a header, the first whose conditions the request meets. `All operations`
 * takes what no operation entry takes, including paths that are no operation. `headers` are the request's;
 * without them (a CORS preflight, which carries none of the real request's headers) header conditions count
 * as met.
 */
export function resolveRoute(
  apis: readonly ApiRoute[],
  method: string,
  target: RoutedTarget,
  headers?: IncomingHttpHeaders,
): RouteResolution {
  const { decodedSegments } = target;
  const api = apis.find((candidate) => hasBasePrefix(candidate.baseSegments, decodedSegments));
  if (api === undefined) return { kind: 'unmatched', api: undefined };
  const baseLength = api.baseSegments.length;
  const operationPath = operationPathOf(target, baseLength);
  const matched = api.pathIndex.match(decodedSegments, baseLength);
  if (matched) {
    const { path, parameters } = matched;
    const candidates = path.byMethod.get(method);
    if (candidates) {
      const chosen = firstMet(candidates, target.query ?? '', headers);
      // No operation's conditions met: `All operations` takes the request, or no endpoint does.
      if (chosen) {
        return {
          kind: 'endpoint',
          api,
          endpoint: chosen.endpoint,
          operationPath,
          pathParameters:
            chosen.matcher === path.matcher
              ? parameters
              : (chosen.matcher.matchSegments(decodedSegments, baseLength) ?? parameters),
          servedMethods: path.servedMethods,
        };
      }
    } else if (!api.allOperations) return { kind: 'method-not-allowed', api, allow: path.servedMethods };
  }
  if (api.allOperations && ALL_OPERATIONS_METHODS.includes(method)) {
    return {
      kind: 'endpoint',
      api,
      endpoint: coveredEndpoint(api, method, target, headers) ?? api.allOperations,
      operationPath,
      pathParameters: NO_PARAMETERS,
      servedMethods: ALL_OPERATIONS_METHODS,
    };
  }
  if (api.allOperations) return { kind: 'method-not-allowed', api, allow: ALL_OPERATIONS_METHODS };
  return { kind: 'unmatched', api };
}

/** The document's operation (without an entry of its own) that a request `All operations` serves matches. */
function coveredEndpoint(
  api: ApiRoute,
  method: string,
  target: RoutedTarget,
  headers: IncomingHttpHeaders | undefined,
): Endpoint | undefined {
  const covered = api.coveredIndex?.match(target.decodedSegments, api.baseSegments.length);
  const candidates = covered?.path.byMethod.get(method);
  return candidates && firstMet(candidates, target.query ?? '', headers)?.endpoint;
}

/** The first operation whose conditions the request meets (a loop: no closure made per request). */
function firstMet(
  candidates: readonly MethodRoute[],
  query: string,
  headers: IncomingHttpHeaders | undefined,
): MethodRoute | undefined {
  for (let index = 0; index < candidates.length; index++) {
    const candidate = candidates[index]!;
    if (meets(candidate.requestMatch, query, headers)) return candidate;
  }
  return undefined;
}

function meets(
  match: RequestMatch | undefined,
  query: string,
  headers: IncomingHttpHeaders | undefined,
): boolean {
  if (match === undefined) return true;
  for (const condition of match.query ?? []) {
    const value = queryParameter(query, condition.name);
    if (value === undefined || (condition.value !== undefined && value !== condition.value)) return false;
  }
  if (headers === undefined) return true;
  for (const condition of match.headers ?? []) {
    const raw = headers[condition.name];
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (value === undefined || (condition.value !== undefined && value.trim() !== condition.value))
      return false;
  }
  return true;
}

function hasBasePrefix(base: readonly string[], segments: readonly string[]): boolean {
  if (base.length > segments.length) return false;
  for (let index = 0; index < base.length; index++) if (base[index] !== segments[index]) return false;
  return true;
}

/** `/orders` under base `/orders` is `` (the base itself); `/orders/` is `/`. */
function operationPathOf(target: RoutedTarget, baseLength: number): string {
  const { path, rawSegments } = target;
  if (rawSegments.length === baseLength) return '';
  // The path is `/` and its raw segments joined by `/`: the base's segments end where the operation path begins.
  let start = 0;
  for (let index = 0; index < baseLength; index++) start += rawSegments[index]!.length + 1;
  return path.slice(start);
}
