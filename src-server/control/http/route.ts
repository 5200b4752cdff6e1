import type { Request, Response } from 'express';
import type { ZodType } from 'zod';
import type { AuditAnnotations } from '../../core/audit/request-audit-record.js';
import type { ActivityName } from '../../core/activities/activities.js';
import type { Principal } from '../../core/http/principal.js';
import type { QuerySpec, QueryValues } from '../../core/http/query-params.js';

export type { AuditAnnotations };

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteContext<P, Q, B> {
  req: Request;
  res: Response;
  params: P;
  query: Q;
  body: B;
  /** Undefined only for anonymous routes. */
  principal: Principal | undefined;
  audit: AuditAnnotations;
  traceId: string;
}

export interface RouteResult {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Returned by a handler that wrote the response itself (streams, downloads). */
export const RESPONSE_WRITTEN = Symbol('response written');

export interface ResponseSpec {
  status: number;
  description: string;
  schema?: ZodType;
  /** Media type(s) when not JSON. */
  contentType?: string | readonly string[];
}

export interface JsonBodySpec<B> {
  kind: 'json';
  schema: ZodType<B>;
  /** Bytes, default 1 MiB. */
  limit?: number;
  required?: boolean;
  description?: string;
}

export interface RawBodySpec {
  kind: 'raw';
  /** Accepted media types. */
  contentTypes: string[];
  limit: number;
  description: string;
}

export interface FormBodySpec<B> {
  kind: 'form';
  schema: ZodType<B>;
  description?: string;
}

export interface RouteDefinition<P = Record<string, string>, S extends QuerySpec = QuerySpec, B = unknown> {
  method: HttpMethod;
  /** Express path with `:name` parameters. */
  path: string;
  /** Every route names its activity; `anonymous` routes still do, for documentation. */
  activity: ActivityName;
  /** OpenAPI tag (Swagger UI section). */
  tag: string;
  summary: string;
  description?: string;
  operationId: string;
  params?: ZodType<P>;
  query?: S;
  body?: JsonBodySpec<B> | RawBodySpec | FormBodySpec<B>;
  responses: ResponseSpec[];
  /**
   * Problem statuses the handler can answer with; the document adds the framework's own (400, 401, 403, 413,
   * 415, 421, 431, 500, 503: control/panel/problem-responses.ts).
   */
  problems?: number[];
  /** No bearer token needed (identity-provider endpoints, sign-in exchange). */
  anonymous?: boolean;
  /** Overrides the activity's read-only flag for auditing, e.g. a POST that changes nothing. */
  audited?: boolean;
  /**
   * May answer synchronously; the router awaits either way, and a throw becomes a problem response. An async
   * handler returning RESPONSE_WRITTEN declares `Promise<typeof RESPONSE_WRITTEN>`: against this union
   * TypeScript would widen the symbol an async function returns to `symbol`.
   */
  handler: (
    ctx: RouteContext<P, QueryValues<S>, B>,
  ) => RouteResult | typeof RESPONSE_WRITTEN | Promise<RouteResult | typeof RESPONSE_WRITTEN>;
}

// The registry stores routes of every shape; handlers are only ever called with their own shape.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRoute = RouteDefinition<any, any, any>;

export function defineRoute<P = Record<string, string>, S extends QuerySpec = QuerySpec, B = unknown>(
  route: RouteDefinition<P, S, B>,
): AnyRoute {
  return route as AnyRoute;
}

/** `/api/v1/apis/:apiId` → `/api/v1/apis/{apiId}` */
export function toOpenApiPath(expressPath: string): string {
  return expressPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}
