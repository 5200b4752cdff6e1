import { checkRefSites } from './check-ref-sites.js';
import { describeType, isJsonObject } from './object-access.js';
import { RefResolver } from './resolve-refs.js';
import { keepRoutable } from './routability.js';
import { checkSpecVersion, validateInfo } from './validate-header.js';
import { validatePaths } from './validate-paths.js';
import { validateServers } from './validate-servers.js';
import type { RefSite } from './document-scan.js';
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
 * taken from it: not an object, not OpenAPI or Swagger 2.0, no paths, or no operation the gateway can expose.
 */
export function validateDocument(
  document: unknown,
  refSites: readonly RefSite[],
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
  checkRefSites(refSites, context);
  const operations = keepRoutable(listed, issues);
  if (operations.length === 0) {
    const { skipped } = issues.finish();
    issues.refuse(
      '/paths',
      skipped.length === 0
        ? 'no operations: the document describes nothing to expose'
        : `no operation can be exposed: ${skipped.length} operation(s) listed, all skipped (${skipped[0]!.method} ${skipped[0]!.path}: ${skipped[0]!.reason})`,
    );
    return undefined;
  }
  return { specVersion, info, server, operations };
}
