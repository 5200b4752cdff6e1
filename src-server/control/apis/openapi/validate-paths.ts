import { appendPointer } from './json-pointer.js';
import { describeType, isExtensionKey, isJsonObject, ownValue, quoteValue } from './object-access.js';
import { parsePathTemplate, shapeOfSegments } from '../../../core/paths/path-template.js';
import { OperationValidator } from './validate-operation.js';
import { collectParameters } from './validate-parameters.js';
import { supportedMethods } from './validation-context.js';
import type { JsonObject } from './object-access.js';
import type { ApiOperation } from './types.js';
import type { ValidationContext } from './validation-context.js';

/** The `paths` object: path templates, path items (through `$ref`s) and their operations. */

const PATH_ITEM_FIELDS_3X = ['$ref', 'summary', 'description', 'servers', 'parameters'];
const PATH_ITEM_FIELDS_2_0 = ['$ref', 'parameters'];
/** Keys that look like an HTTP method we cannot expose: worth an error rather than a warning. */
const OTHER_HTTP_METHODS = new Set(
  'connect query copy move lock unlock link unlink purge search propfind proppatch mkcol report'.split(' '),
);

export function validatePaths(document: JsonObject, context: ValidationContext): ApiOperation[] {
  const { issues, version } = context;
  const paths = ownValue(document, 'paths');
  if (paths === undefined) {
    // Optional since 3.1 (a document may hold only components or webhooks).
    if (version === '3.1') issues.warning('/paths', 'no paths: the API exposes no operations');
    else issues.error('/paths', 'missing: the document needs a paths object');
    return [];
  }
  if (!isJsonObject(paths)) {
    issues.error(
      '/paths',
      `must be an object whose keys are paths such as /orders, found ${describeType(paths)}`,
    );
    return [];
  }
  const operationValidator = new OperationValidator(context);
  const templatesByShape = new Map<string, string>();
  const operations: ApiOperation[] = [];
  for (const template of Object.keys(paths)) {
    if (issues.errorLimitReached) {
      issues.markStoppedEarly();
      break;
    }
    if (isExtensionKey(template)) continue;
    const pointer = appendPointer('/paths', template);
    const templateNames = checkTemplate(template, pointer, templatesByShape, context);
    if (templateNames === null) continue;
    const pathItem = resolvePathItem(paths[template], pointer, context);
    if (!pathItem) continue;
    operations.push(...validatePathItem(pathItem, template, templateNames, operationValidator, context));
  }
  if (operations.length === 0 && !issues.hasErrors) {
    issues.warning('/paths', 'the document defines no operations');
  }
  return operations;
}

/**
 * The template's parameter names; `undefined` when the template is malformed (operations are still
 * validated), `null` when the key is not a path at all.
 */
function checkTemplate(
  template: string,
  pointer: string,
  templatesByShape: Map<string, string>,
  context: ValidationContext,
): readonly string[] | undefined | null {
  const { issues } = context;
  if (!template.startsWith('/')) {
    issues.error(pointer, `path ${quoteValue(template)} must start with "/"`);
    return null;
  }
  const parsed = parsePathTemplate(template);
  if (!parsed.ok) {
    for (const problem of parsed.problems) issues.error(pointer, `path ${quoteValue(template)}: ${problem}`);
    return undefined;
  }
  const shape = shapeOfSegments(parsed.segments);
  const sameShape = templatesByShape.get(shape);
  if (sameShape !== undefined) {
    issues.error(
      pointer,
      `path ${quoteValue(template)} matches the same requests as ${quoteValue(sameShape)} (only parameter names differ)`,
    );
  } else {
    templatesByShape.set(shape, template);
  }
  return parsed.parameterNames;
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
  pointer: string,
  context: ValidationContext,
): ResolvedPathItem | undefined {
  const { issues, resolver } = context;
  if (!isJsonObject(pathItem)) {
    issues.error(pointer, `a path item must be an object of operations, found ${describeType(pathItem)}`);
    return undefined;
  }
  if (!Object.hasOwn(pathItem, '$ref')) {
    return { value: pathItem, pointer, pointerOf: (key) => appendPointer(pointer, key) };
  }
  const resolved = resolver.resolve(pathItem, pointer);
  if (!resolved.ok) {
    issues.error(resolved.pointer, resolved.message);
    return undefined;
  }
  if (!isJsonObject(resolved.value)) {
    issues.error(
      pointer,
      `$ref of a path item must point to an object, found ${describeType(resolved.value)}`,
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
  template: string,
  templateNames: readonly string[] | undefined,
  operationValidator: OperationValidator,
  context: ValidationContext,
): ApiOperation[] {
  const { issues, version } = context;
  const methods = supportedMethods(version);
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
  for (const key of Object.keys(pathItem)) {
    const keyPointer = pointerOf(key);
    if (methods.includes(key)) {
      const site = { method: key, template, templateNames, pointer: keyPointer, pathLevelParameters };
      const operation = operationValidator.validate(pathItem[key], site);
      if (operation) operations.push(operation);
    } else if (isExtensionKey(key) || otherFields.includes(key)) {
      continue;
    } else if (methods.includes(key.toLowerCase())) {
      issues.error(keyPointer, `HTTP method keys are lowercase: use ${quoteValue(key.toLowerCase())}`);
    } else if (key === 'trace' || OTHER_HTTP_METHODS.has(key.toLowerCase())) {
      issues.error(
        keyPointer,
        `${quoteValue(key)} is not a supported operation; use one of ${methods.join(', ')}`,
      );
    } else {
      issues.warning(keyPointer, `unknown path item field ${quoteValue(key)} ignored`);
    }
  }
  if (operations.length === 0 && !Object.keys(pathItem).some((key) => methods.includes(key))) {
    issues.warning(pointer, `path ${quoteValue(template)} has no operations`);
  }
  return operations;
}
