import { checkRefSites } from './check-ref-sites.js';
import { describeType, isJsonObject } from './object-access.js';
import { RefResolver } from './resolve-refs.js';
import { keepRoutable } from './routability.js';
import { checkSpecVersion, validateInfo } from './validate-header.js';
import { validatePaths } from './validate-paths.js';
import { validateServers } from './validate-servers.js';
import type { RefIndex } from './ref-index.js';
import type { IssueCollector } from './issues.js';
import type { ApiOperation, SpecVersion } from './types.js';
import type { ValidatedInfo } from './validate-header.js';
import type { ValidatedServer } from './validate-servers.js';

/** Everything the definition is built from; present unless the document was refused. */
export interface ValidatedDocument {
  specVersion: SpecVersion;
  info: ValidatedInfo;
  server: ValidatedServer;
  operations: ApiOperation[];
}

export interface ValidateOptions {
  documentUrl?: string;
  onProgress?: (done: number, total: number) => void;
}

/**
 * Validates a parsed document, reporting to `issues`. `undefined` (refused) only when nothing usable can be
 * taken from it: not an object, not OpenAPI or Swagger 2.0, or no paths object at all.
 */
export function validateDocument(
  document: unknown,
  refs: RefIndex,
  issues: IssueCollector,
  options: ValidateOptions = {},
): ValidatedDocument | undefined {
  if (!isJsonObject(document)) {
    issues.refuse(
      '',
      `not an OpenAPI document: it must be an object (a JSON object or YAML mapping), found ${describeType(document)}`,
    );
    return undefined;
  }
  const specVersion = checkSpecVersion(document, issues);
  if (specVersion === undefined) return undefined;
  const context = {
    version: specVersion,
    issues,
    resolver: new RefResolver(document),
    ...(options.documentUrl === undefined ? {} : { documentUrl: options.documentUrl }),
  };
  const info = validateInfo(document, issues);
  const server = validateServers(document, context);
  const listed = validatePaths(document, context, options.onProgress);
  if (listed === undefined) return undefined;
  checkRefSites(refs, context);
  const operations = keepRoutable(listed, issues);
  if (operations.length === 0) {
    // Still usable: an `All operations` passthrough forwards every request under the base path.
    const { skipped } = issues.finish();
    issues.warning(
      '/paths',
      skipped.length === 0
        ? 'no operations: the API has its base path only; an All operations passthrough can still forward requests under it'
        : `none of its ${skipped.length} operation(s) can be exposed (see the skipped operations); an All operations passthrough can still forward requests under the base path`,
    );
  }
  return { specVersion, info, server, operations };
}
