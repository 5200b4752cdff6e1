import { checkRefSites } from './check-ref-sites.js';
import { describeType, isJsonObject } from './object-access.js';
import { RefResolver } from './resolve-refs.js';
import { checkSpecVersion, validateInfo } from './validate-header.js';
import { validatePaths } from './validate-paths.js';
import { validateServers } from './validate-servers.js';
import type { RefSite } from './document-scan.js';
import type { IssueCollector } from './issues.js';
import type { ApiOperation, SpecVersion } from './types.js';
import type { ValidatedInfo } from './validate-header.js';
import type { ValidatedServer } from './validate-servers.js';

/** Everything the definition is built from; present only when the document had no errors. */
export interface ValidatedDocument {
  specVersion: SpecVersion;
  info: ValidatedInfo;
  server: ValidatedServer;
  operations: ApiOperation[];
}

/** Validates a parsed document, reporting to `issues`; `undefined` when it has errors. */
export function validateDocument(
  document: unknown,
  refSites: readonly RefSite[],
  issues: IssueCollector,
): ValidatedDocument | undefined {
  if (!isJsonObject(document)) {
    issues.error(
      '',
      `the document must be an object (a JSON object or YAML mapping), found ${describeType(document)}`,
    );
    return undefined;
  }
  const { specVersion, rules } = checkSpecVersion(document, issues);
  if (rules === undefined) return undefined;
  const context = { version: rules, issues, resolver: new RefResolver(document) };
  const info = validateInfo(document, issues);
  const server = validateServers(document, context);
  const operations = validatePaths(document, context);
  checkRefSites(refSites, context);
  if (issues.hasErrors || specVersion === undefined || info === undefined) return undefined;
  return { specVersion, info, server, operations };
}
