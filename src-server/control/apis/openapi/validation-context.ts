import type { IssueCollector } from './issues.js';
import type { RefResolver } from './resolve-refs.js';
import type { SpecVersion } from './types.js';

/** What every validator needs: the rules to apply, where to report, how to follow `$ref`s. */
export interface ValidationContext {
  version: SpecVersion;
  issues: IssueCollector;
  resolver: RefResolver;
}

export const HTTP_METHODS_3X = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export const HTTP_METHODS_2_0 = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'] as const;

export function supportedMethods(version: SpecVersion): readonly string[] {
  return version === '2.0' ? HTTP_METHODS_2_0 : HTTP_METHODS_3X;
}
