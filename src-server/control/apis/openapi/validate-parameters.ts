import { appendPointer } from './json-pointer.js';
import { describeType, isJsonObject, ownValue, quoteValue } from './object-access.js';
import type { ValidationContext } from './validation-context.js';

/** Parameter lists of path items and operations, `$ref`s followed, and path-parameter consistency. */

export interface DeclaredParameter {
  name: string;
  location: string;
  /** Where the parameter is listed (the `$ref` site for a referenced parameter). */
  pointer: string;
}

export interface ParameterList {
  parameters: DeclaredParameter[];
  /** False when some entry could not be read, so "undeclared path parameter" checks would be noise. */
  complete: boolean;
}

const LOCATIONS_3X = ['query', 'header', 'path', 'cookie'];
const LOCATIONS_2_0 = ['query', 'header', 'path', 'formData', 'body'];

export function collectParameters(
  value: unknown,
  pointer: string,
  context: ValidationContext,
): ParameterList {
  const { issues, resolver } = context;
  if (value === undefined) return { parameters: [], complete: true };
  if (!Array.isArray(value)) {
    issues.warning(pointer, `must be an array of parameters, found ${describeType(value)}`);
    return { parameters: [], complete: false };
  }
  const parameters: DeclaredParameter[] = [];
  let complete = true;
  value.forEach((entry, index) => {
    const entryPointer = appendPointer(pointer, index);
    const resolved = resolver.resolve(entry, entryPointer);
    if (!resolved.ok) {
      issues.warning(resolved.pointer, resolved.message);
      complete = false;
      return;
    }
    const parameter = validateParameterObject(resolved.value, resolved.pointer, context);
    if (!parameter) {
      complete = false;
      return;
    }
    const duplicate = parameters.find((other) => sameParameter(other, parameter));
    if (duplicate) {
      issues.warning(
        entryPointer,
        `duplicate parameter: ${quoteValue(parameter.name)} in ${parameter.location} is already listed at ${duplicate.pointer}`,
      );
      return;
    }
    parameters.push({ ...parameter, pointer: entryPointer });
  });
  checkBodyParameters(parameters, pointer, context);
  return { parameters, complete };
}

function validateParameterObject(
  parameter: unknown,
  pointer: string,
  context: ValidationContext,
): Omit<DeclaredParameter, 'pointer'> | undefined {
  const { issues, version } = context;
  if (!isJsonObject(parameter)) {
    issues.warning(
      pointer,
      `a parameter must be an object with name and in, found ${describeType(parameter)}`,
    );
    return undefined;
  }
  const name = ownValue(parameter, 'name');
  const location = ownValue(parameter, 'in');
  const locations = version === '2.0' ? LOCATIONS_2_0 : LOCATIONS_3X;
  let valid = true;
  if (name === undefined) issues.warning(`${pointer}/name`, 'missing: a parameter needs a name');
  if (name !== undefined && (typeof name !== 'string' || name === '')) {
    issues.warning(`${pointer}/name`, `must be a non-empty string, found ${quoteValue(name)}`);
  }
  if (typeof name !== 'string' || name === '') valid = false;
  if (location === undefined) {
    issues.warning(`${pointer}/in`, `missing: a parameter needs "in" (one of ${locations.join(', ')})`);
    valid = false;
  } else if (typeof location !== 'string' || !locations.includes(location)) {
    issues.warning(`${pointer}/in`, `must be one of ${locations.join(', ')}; found ${quoteValue(location)}`);
    valid = false;
  }
  if (location === 'path' && ownValue(parameter, 'required') !== true) {
    issues.warning(`${pointer}/required`, 'a path parameter must have required: true');
  }
  warnAboutMissingType(parameter, pointer, location, context);
  return valid ? { name: name as string, location: location as string } : undefined;
}

function warnAboutMissingType(
  parameter: Record<string, unknown>,
  pointer: string,
  location: unknown,
  context: ValidationContext,
): void {
  const has = (key: string) => ownValue(parameter, key) !== undefined;
  if (context.version !== '2.0') {
    if (!has('schema') && !has('content')) {
      context.issues.warning(pointer, 'a parameter should have a schema (or content) describing its value');
    } else if (has('schema') && has('content')) {
      context.issues.warning(pointer, 'a parameter must have either schema or content, not both');
    }
  } else if (location === 'body' ? !has('schema') : !has('type')) {
    context.issues.warning(
      pointer,
      location === 'body' ? 'a body parameter should have a schema' : 'a parameter should have a type',
    );
  }
}

function checkBodyParameters(
  parameters: DeclaredParameter[],
  pointer: string,
  context: ValidationContext,
): void {
  if (context.version !== '2.0') return;
  const bodies = parameters.filter((parameter) => parameter.location === 'body');
  const second = bodies[1];
  if (second) context.issues.warning(second.pointer, 'there can be at most one body parameter');
  const form = parameters.find((parameter) => parameter.location === 'formData');
  if (bodies.length > 0 && form) {
    context.issues.warning(pointer, 'body and formData parameters cannot be used together');
  }
}

function sameParameter(
  a: Omit<DeclaredParameter, 'pointer'>,
  b: Omit<DeclaredParameter, 'pointer'>,
): boolean {
  if (a.location !== b.location) return false;
  // HTTP header names are case-insensitive.
  return a.location === 'header' ? a.name.toLowerCase() === b.name.toLowerCase() : a.name === b.name;
}

/** Path-level parameters overridden by operation-level ones with the same name and location. */
export function mergeParameters(pathLevel: ParameterList, operationLevel: ParameterList): ParameterList {
  const inherited = pathLevel.parameters.filter(
    (parameter) => !operationLevel.parameters.some((override) => sameParameter(parameter, override)),
  );
  return {
    parameters: [...inherited, ...operationLevel.parameters],
    complete: pathLevel.complete && operationLevel.complete,
  };
}

/**
 * Every `{name}` of the template should be declared `in: path`, and every declared path parameter should
 * appear in the template. Both are warnings: the gateway matches the template as written either way.
 */
export function checkPathParameters(
  templateNames: readonly string[],
  template: string,
  declared: ParameterList,
  operationPointer: string,
  context: ValidationContext,
): void {
  const pathParameters = declared.parameters.filter((parameter) => parameter.location === 'path');
  if (declared.complete) {
    for (const name of templateNames) {
      if (!pathParameters.some((parameter) => parameter.name === name)) {
        context.issues.warning(
          `${operationPointer}/parameters`,
          `path parameter {${name}} of ${quoteValue(template)} is not declared (the gateway still matches any value ` +
            `there): add a parameter with name: ${name}, in: path, required: true to the path item or to this operation`,
        );
      }
    }
  }
  for (const parameter of pathParameters) {
    if (!templateNames.includes(parameter.name)) {
      context.issues.warning(
        parameter.pointer,
        `path parameter ${quoteValue(parameter.name)} does not appear in ${quoteValue(template)}, so it can never be sent`,
      );
    }
  }
}
