import { TRY_METHODS, type TryItRequest, type TryMethod } from '../../../../api/types.js';

export interface HeaderRow {
  key: number;
  name: string;
  value: string;
}

/** What the user is about to send, as typed. */
export interface TryDraft {
  method: TryMethod;
  /** Path and query under the base path; `{param}` placeholders until the user replaces them. */
  path: string;
  headers: HeaderRow[];
  body: string;
  /** Empty: the first cross-platform agent group of the API whose listener runs. */
  agentGroupId: string;
}

const METHODS_WITH_BODY: ReadonlySet<TryMethod> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

let nextKey = 1;

export function newHeaderRow(name = '', value = ''): HeaderRow {
  return { key: nextKey++, name, value };
}

export function methodHasBody(method: TryMethod): boolean {
  return METHODS_WITH_BODY.has(method);
}

export function asTryMethod(method: string): TryMethod {
  const upper = method.toUpperCase();
  return (TRY_METHODS as readonly string[]).includes(upper) ? (upper as TryMethod) : 'GET';
}

/** The operation's method and path; `All operations` (`*`, empty) starts at `/`. */
export function initialDraft(method: string, path: string): TryDraft {
  const tryMethod = asTryMethod(method);
  const trimmed = path.trim();
  const startPath =
    trimmed === '' || trimmed === '*' ? '/' : trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
  return {
    method: tryMethod,
    path: startPath,
    headers: methodHasBody(tryMethod) ? [newHeaderRow('Content-Type', 'application/json')] : [],
    body: '',
    agentGroupId: '',
  };
}

/** A switch to a method with a body offers a JSON Content-Type unless one is there. */
export function withMethod(draft: TryDraft, method: TryMethod): TryDraft {
  const hasContentType = draft.headers.some((row) => row.name.trim().toLowerCase() === 'content-type');
  const headers =
    methodHasBody(method) && !hasContentType
      ? [...draft.headers, newHeaderRow('Content-Type', 'application/json')]
      : draft.headers;
  return { ...draft, method, headers };
}

/**
 * The path as typed, with a doubled leading slash made single: the field starts as `/` after the base path, and
 * typing `/orders` after it must not try `/orders-api/v1//orders`.
 */
export function typedPath(value: string): string {
  return value.replace(/^\/{2,}/, '/');
}

/** `{name}` placeholders still in the path (before the query). */
export function placeholdersIn(path: string): string[] {
  const pathPart = path.split('?')[0] ?? '';
  return [...pathPart.matchAll(/\{([^}]*)\}/g)].map((match) => match[1] ?? '');
}

/** The full path for a path typed under the base path (`/` alone is the base path itself). */
export function fullPath(basePath: string | undefined, path: string): string {
  if (basePath === undefined || basePath === '/' || basePath === '') return path;
  const queryStart = path.indexOf('?');
  const pathPart = queryStart === -1 ? path : path.slice(0, queryStart);
  const query = queryStart === -1 ? '' : path.slice(queryStart);
  const base = basePath.endsWith('/') ? basePath.slice(0, -1) : basePath;
  return `${base}${pathPart === '/' ? '' : pathPart}${query}`;
}

/** The request to send; with the base path known, the path goes out in full. */
export function toTryRequest(draft: TryDraft, basePath: string | undefined): TryItRequest {
  const typed = draft.path.trim();
  const headers = draft.headers
    .filter((row) => row.name.trim() !== '')
    .map((row) => ({ name: row.name.trim(), value: row.value }));
  return {
    method: draft.method,
    path: fullPath(basePath, typed.startsWith('/') ? typed : `/${typed}`),
    headers,
    ...(draft.agentGroupId ? { agentGroupId: draft.agentGroupId } : {}),
    ...(methodHasBody(draft.method) && draft.body !== '' ? { body: draft.body } : {}),
  };
}

/** Header values worth hiding on screen while typing (keys, tokens). */
export function looksSecret(headerName: string): boolean {
  return /^(authorization|proxy-authorization|cookie)$|key|token|secret|password/i.test(headerName.trim());
}
