import type { IssueCollector } from './issues.js';
import type { RefResolver } from './resolve-refs.js';
import type { SpecVersion } from './types.js';

/** What every validator needs: the rules to apply, where to report, how to follow `$ref`s. */
export interface ValidationContext {
  version: SpecVersion;
  issues: IssueCollector;
  resolver: RefResolver;
  /** Where the document came from, for relative server URLs (see ParseApiDefinitionOptions). */
  documentUrl?: string;
}

export const HTTP_METHODS_3X = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export const HTTP_METHODS_2_0 = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'] as const;

/** The operation keys of a path item in this version (3.2 adds `query`). */
export function operationKeys(version: SpecVersion): readonly string[] {
  if (version === '2.0') return HTTP_METHODS_2_0;
  return version === '3.2' ? [...HTTP_METHODS_3X, 'query'] : HTTP_METHODS_3X;
}

/** Methods the gateway exposes (`HttpMethod`); others are listed as skipped. */
export function isExposedMethod(method: string): boolean {
  return (HTTP_METHODS_3X as readonly string[]).includes(method.toLowerCase());
}
