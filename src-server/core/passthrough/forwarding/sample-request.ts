import { matchPathTemplate } from '../../paths/path-template.js';
import { templateOfPathKey } from '../../paths/request-match.js';
import type { ApiOperationRecord } from '../../model/config-model.js';

/**
 * The request a preview renders with: the sample the editor sent, or one made from the operation's path with
 * each parameter `{name}` replaced by `sample-name` (`/orders/{id}` → `/orders/sample-id`); `All operations`
 * uses `/sample-path`.
 */
export interface SampleInput {
  method?: string;
  /** Path and query under the base path (`/orders/42?x=1`), the full path from the listener root
   * (`/orders-api/v1/orders/42`), or an absolute URL whose path is under the base path. */
  url?: string;
  headers?: Record<string, string | string[]>;
}

export type SampleRequest =
  | {
      ok: true;
      method: string;
      /** Full path from the listener root, as the gateway would receive it. */
      path: string;
      query: string;
      operationPath: string;
      pathParameters: Record<string, string>;
      headers: Record<string, string | string[]>;
    }
  | { ok: false; message: string };

export const ALL_OPERATIONS_SAMPLE_PATH = '/sample-path';

/** With the query conditions of an operation told apart by them (`/?Action=UntagQueue`). */
export function defaultSamplePath(operation: ApiOperationRecord | undefined): string {
  if (!operation) return ALL_OPERATIONS_SAMPLE_PATH;
  const path = templateOfPathKey(operation.path).replace(
    /\{([^}]*)\}/g,
    (_, name: string) => `sample-${name}`,
  );
  const query = (operation.requestMatch?.query ?? [])
    .map(({ name, value }) =>
      value === undefined
        ? encodeURIComponent(name)
        : `${encodeURIComponent(name)}=${encodeURIComponent(value)}`,
    )
    .join('&');
  return query === '' ? path : `${path}?${query}`;
}

export function buildSampleRequest(
  basePath: string,
  operation: ApiOperationRecord | undefined,
  sample: SampleInput | undefined,
): SampleRequest {
  const method = sample?.method ?? operation?.method ?? 'GET';
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(sample?.headers ?? {})) headers[name.toLowerCase()] = value;
  const split = splitSampleUrl(sample?.url ?? defaultSamplePath(operation), basePath);
  if (!split.ok) return split;
  const { operationPath, query } = split;
  let pathParameters: Record<string, string> = {};
  if (operation) {
    const template = templateOfPathKey(operation.path);
    const matched = matchPathTemplate(template, operationPath);
    if (matched === null) {
      return {
        ok: false,
        message: `the sample path ${operationPath || '/'} does not match ${template}`,
      };
    }
    pathParameters = matched;
  }
  const path = basePath === '/' ? operationPath || '/' : `${basePath}${operationPath}`;
  return { ok: true, method, path, query, operationPath, pathParameters, headers };
}

function splitSampleUrl(
  url: string,
  basePath: string,
): { ok: true; operationPath: string; query: string } | { ok: false; message: string } {
  let text = url;
  let absolute = false;
  const scheme = /^https?:\/\/[^/?#]*/i.exec(text);
  if (scheme) {
    text = text.slice(scheme[0].length) || '/';
    absolute = true;
  }
  if (!text.startsWith('/')) text = `/${text}`;
  const hash = text.indexOf('#');
  if (hash !== -1) text = text.slice(0, hash);
  const queryStart = text.indexOf('?');
  const path = queryStart === -1 ? text : text.slice(0, queryStart);
  const query = queryStart === -1 ? '' : text.slice(queryStart + 1);
  const underBase = basePath === '/' || path === basePath || path.startsWith(`${basePath}/`);
  if (absolute && !underBase)
    return { ok: false, message: `the sample URL is not under the base path ${basePath}` };
  // A path that starts with the base path is taken as the full path (the gateway sees it so).
  const operationPath = underBase && basePath !== '/' ? path.slice(basePath.length) : path;
  return { ok: true, operationPath, query };
}
