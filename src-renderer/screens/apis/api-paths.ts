/** Where the APIs screen's views live. */
export type ApisView =
  | { kind: 'list' }
  | { kind: 'details'; apiId: string }
  | { kind: 'passthrough'; apiId: string }
  | { kind: 'unknown' };

export const API_LIST_PATH = '/apis';

export function apiDetailsPath(apiId: string): string {
  return `${API_LIST_PATH}/${encodeURIComponent(apiId)}`;
}

export function passthroughEditorPath(apiId: string): string {
  return `${apiDetailsPath(apiId)}/passthrough`;
}

export function apisViewOf(pathname: string): ApisView {
  const segments = pathname.replace(/\/+$/, '').split('/').slice(2);
  if (segments.length === 0) return { kind: 'list' };
  let apiId: string;
  try {
    apiId = decodeURIComponent(segments[0]!);
  } catch {
    return { kind: 'unknown' };
  }
  if (!apiId) return { kind: 'unknown' };
  if (segments.length === 1) return { kind: 'details', apiId };
  if (segments.length === 2 && segments[1] === 'passthrough') return { kind: 'passthrough', apiId };
  return { kind: 'unknown' };
}

/** The address a caller uses for an API on a gateway listener: its origin and the API's base path. */
export function callerUrlOf(listenerUrl: string, basePath: string): string {
  return `${listenerUrl.replace(/\/+$/, '')}${basePath === '/' ? '/' : basePath}`;
}
