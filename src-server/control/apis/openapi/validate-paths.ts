import { appendPointer } from './json-pointer.js';
import { describeType, isExtensionKey, isJsonObject, ownValue, quoteValue } from './object-access.js';
import { parsePathTemplate } from '../../../core/paths/path-template.js';
import { parseSuffixConditions, splitPathKey } from '../../../core/paths/request-match.js';
import { OperationValidator } from './validate-operation.js';
import { collectParameters } from './validate-parameters.js';
import { isExposedMethod, operationKeys } from './validation-context.js';
import type { JsonObject } from './object-access.js';
import type { ApiOperation } from './types.js';
import type { OperationSite } from './validate-operation.js';
import type { ValidationContext } from './validation-context.js';

/** The `paths` object: path keys, path items (through `$ref`s) and their operations. */

const PATH_ITEM_FIELDS_3X = ['$ref', 'summary', 'description', 'servers', 'parameters'];
const PATH_ITEM_FIELDS_2_0 = ['$ref', 'parameters'];
/** Keys that look like an HTTP method the gateway does not expose: listed as skipped operations. */
const OTHER_HTTP_METHODS = new Set(
  'connect query copy move lock unlock link unlink purge search propfind proppatch mkcol report'.split(' '),
);
const PROGRESS_EVERY = 250;

export function validatePaths(
  document: JsonObject,
  context: ValidationContext,
  onProgress?: (done: number, total: number) => void,
): ApiOperation[] | undefined {
  const { issues } = context;
  const paths = ownValue(document, 'paths');
  if (!isJsonObject(paths)) {
    issues.refuse(
      '/paths',
      paths === undefined
        ? 'no paths: the document describes no operations to expose'
        : `must be an object whose keys are paths such as /orders, found ${describeType(paths)}`,
    );
    return undefined;
  }
  const operationValidator = new OperationValidator(context);
  const operations: ApiOperation[] = [];
  const keys = Object.keys(paths);
  keys.forEach((pathKey, index) => {
    if (onProgress && index % PROGRESS_EVERY === 0) onProgress(index, keys.length);
    if (isExtensionKey(pathKey)) return;
    const pointer = appendPointer('/paths', pathKey);
    const pathItem = resolvePathItem(paths[pathKey], pathKey, pointer, context);
    if (!pathItem) return;
    const site = pathSite(pathKey, pointer, context);
    operations.push(...validatePathItem(pathItem, site, operationValidator, context));
  });
  onProgress?.(keys.length, keys.length);
  return operations;
}

type PathSite = Pick<OperationSite, 'pathKey' | 'template' | 'templateNames' | 'suffix'>;

/** The template (up to `?`/`#`), its parameter names (`undefined` when malformed) and the conditions after it. */
function pathSite(pathKey: string, pointer: string, context: ValidationContext): PathSite {
  const { template, suffix } = splitPathKey(pathKey);
  const site: PathSite = { pathKey, template, templateNames: undefined };
  if (suffix) site.suffix = { marker: suffix.marker, conditions: parseSuffixConditions(suffix.text) };
  if (!template.startsWith('/')) {
    context.issues.warning(
      pointer,
      `path ${quoteValue(pathKey)} must start with "/"; its operations are skipped`,
    );
    return site;
  }
  const parsed = parsePathTemplate(template);
  if (!parsed.ok) {
    for (const problem of parsed.problems) {
      context.issues.warning(pointer, `path ${quoteValue(pathKey)}: ${problem}; its operations are skipped`);
    }
    return site;
  }
  for (const name of parsed.repeatedNames) {
    context.issues.warning(
      pointer,
      `path ${quoteValue(pathKey)}: parameter {${name}} appears more than once; the gateway routes only requests where every occurrence has the same value`,
    );
  }
  return { ...site, templateNames: parsed.parameterNames };
}

/**
 * Follows a path item `$ref`. Fields written next to the `$ref` are kept and win over the target's
 * (3.1 leaves this undefined; taking the local ones is what authors mean).
 */
interface ResolvedPathItem {
  value: JsonObject;
  pointer: string;
  /** Where a field of `value` is in the document: next to the `$ref`, or in its target. */
  pointerOf: (key: string) => string;
}

function resolvePathItem(
  pathItem: unknown,
  pathKey: string,
  pointer: string,
  context: ValidationContext,
): ResolvedPathItem | undefined {
  const { issues, resolver } = context;
  const skipAll = (at: string, reason: string) =>
    issues.skip({ method: '*', path: pathKey, pointer: at, reason });
  if (!isJsonObject(pathItem)) {
    skipAll(pointer, `a path item must be an object of operations, found ${describeType(pathItem)}`);
    return undefined;
  }
  if (!Object.hasOwn(pathItem, '$ref')) {
    return { value: pathItem, pointer, pointerOf: (key) => appendPointer(pointer, key) };
  }
  const resolved = resolver.resolve(pathItem, pointer);
  if (!resolved.ok) {
    skipAll(resolved.pointer, `the path item is a $ref that cannot be followed: ${resolved.message}`);
    return undefined;
  }
  if (!isJsonObject(resolved.value)) {
    skipAll(
      pointer,
      `the $ref of the path item must point to an object, found ${describeType(resolved.value)}`,
    );
    return undefined;
  }
  const target = resolved.pointer;
  const localKeys = Object.keys(pathItem).filter((key) => key !== '$ref');
  return {
    value: { ...resolved.value, ...Object.fromEntries(localKeys.map((key) => [key, pathItem[key]])) },
    pointer,
    pointerOf: (key) => appendPointer(localKeys.includes(key) ? pointer : target, key),
  };
}

function validatePathItem(
  { value: pathItem, pointer, pointerOf }: ResolvedPathItem,
  pathSiteOf: PathSite,
  operationValidator: OperationValidator,
  context: ValidationContext,
): ApiOperation[] {
  const { issues, version } = context;
  const methods = operationKeys(version);
  const otherFields = version === '2.0' ? PATH_ITEM_FIELDS_2_0 : PATH_ITEM_FIELDS_3X;
  const pathLevelParameters = collectParameters(
    ownValue(pathItem, 'parameters'),
    pointerOf('parameters'),
    context,
  );
  if (ownValue(pathItem, 'servers') !== undefined && version !== '2.0') {
    issues.warning(
      pointerOf('servers'),
      'path item servers are ignored: the API base path comes from the top-level servers',
    );
  }
  const operations: ApiOperation[] = [];
  const skip = (method: string, at: string, reason: string) =>
    issues.skip({ method: method.toUpperCase(), path: pathSiteOf.pathKey, pointer: at, reason });
  const validate = (method: string, keyPointer: string, value: unknown) => {
    if (!isExposedMethod(method)) {
      skip(method, keyPointer, `the gateway does not expose ${method.toUpperCase()} operations`);
      return;
    }
    const site = { ...pathSiteOf, method, pointer: keyPointer, pathLevelParameters };
    const operation = operationValidator.validate(value, site);
    if (operation) operations.push(operation);
  };
  for (const key of Object.keys(pathItem)) {
    const keyPointer = pointerOf(key);
    if (methods.includes(key)) {
      validate(key, keyPointer, pathItem[key]);
    } else if (key === 'additionalOperations' && version === '3.2') {
      validateAdditionalOperations(pathItem[key], keyPointer, skip, issues);
    } else if (isExtensionKey(key) || otherFields.includes(key)) {
      continue;
    } else if (methods.includes(key.toLowerCase()) && !Object.hasOwn(pathItem, key.toLowerCase())) {
      issues.warning(
        keyPointer,
        `HTTP method keys are lowercase; read ${quoteValue(key)} as ${quoteValue(key.toLowerCase())}`,
      );
      validate(key.toLowerCase(), keyPointer, pathItem[key]);
    } else if (key === 'trace' || OTHER_HTTP_METHODS.has(key.toLowerCase())) {
      skip(
        key,
        keyPointer,
        `${quoteValue(key)} is not an operation of OpenAPI ${version}, and the gateway does not expose it`,
      );
    } else {
      issues.warning(keyPointer, `unknown path item field ${quoteValue(key)} ignored`);
    }
  }
  if (!Object.keys(pathItem).some((key) => methods.includes(key.toLowerCase()))) {
    issues.warning(pointer, `path ${quoteValue(pathSiteOf.pathKey)} has no operations`);
  }
  return operations;
}

/** OpenAPI 3.2 `additionalOperations`: methods such as COPY or LINK, which the gateway does not expose. */
function validateAdditionalOperations(
  value: unknown,
  pointer: string,
  skip: (method: string, at: string, reason: string) => void,
  issues: ValidationContext['issues'],
): void {
  if (!isJsonObject(value)) {
    issues.warning(pointer, `should be an object of operations by HTTP method, found ${describeType(value)}`);
    return;
  }
  for (const method of Object.keys(value)) {
    if (isExtensionKey(method)) continue;
    skip(
      method,
      appendPointer(pointer, method),
      `the gateway does not expose ${method.toUpperCase()} operations (from additionalOperations)`,
    );
  }
}
