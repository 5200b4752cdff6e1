/**
 * The management API's payloads as the console uses them. They mirror the OpenAPI document at
 * `/swagger/v1/swagger.json` (schema names in the comments); the renderer never imports server code at run time.
 */

/** ProblemDetails / ValidationProblemDetails (`application/problem+json`). */
export interface ProblemDetails {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  instance?: string;
  traceId?: string;
  errors?: Record<string, string[]>;
  /** Extension members, e.g. the `missingValues` of a refused deployment. */
  [extension: string]: unknown;
}

/** Paging of every management list endpoint except the audit log. */
export interface Paging {
  currentPage: number;
  pageSize: number;
  totalCount: number;
  firstPage: number;
  lastPage: number;
  nextPage: number | null;
  previousPage: number | null;
}

export interface ListPage<T> {
  data: T[];
  paging: Paging;
}

/** `CurrentIdentity` — GET /api/v1/me. */
export interface CurrentIdentity {
  userName: string;
  kind: 'user' | 'client';
  roles: string[];
  /** Activities (`{Controller}.{Action}`) the caller may perform. */
  activities: string[];
}

/** `Session` — POST /api/v1/session/sign-in and /refresh. */
export interface SessionToken {
  accessToken: string;
  tokenType: 'Bearer';
  /** Seconds. */
  expiresIn: number;
  userName: string;
  roles: string[];
}

/** The external identity provider the console signs in with (authorization code + PKCE). */
export interface ExternalSignInOptions {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  clientId: string;
  scope: string;
}

/** `SignInOptions` — GET /api/v1/session/options. */
export interface SignInOptions {
  signInLink: true;
  external: ExternalSignInOptions | null;
  externalUnavailable?: string;
}

export * from './audit-types.js';
export * from './environment-types.js';
export * from './monitoring-types.js';
export * from './policy-types.js';
export * from './tenant-types.js';
