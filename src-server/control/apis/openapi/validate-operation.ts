import { appendPointer } from './json-pointer.js';
import { describeType, isExtensionKey, isJsonObject, ownValue, quoteValue } from './object-access.js';
import { requestMatchOf } from './operation-request-match.js';
import { checkPathParameters, collectParameters, mergeParameters } from './validate-parameters.js';
import type { MatchCondition } from '../../../core/paths/request-match.js';
import type { JsonObject } from './object-access.js';
import type { ApiOperation, HttpMethod } from './types.js';
import type { ParameterList } from './validate-parameters.js';
import type { ValidationContext } from './validation-context.js';

/** One operation object: identity (operationId), parameters, responses. */

export interface OperationSite {
  /** Lower-case operation key (`get`), or the method of an `additionalOperations` entry as written. */
  method: string;
  /** The path key as written in the document. */
  pathKey: string;
  /** The path template the gateway matches (the key up to `?` or `#`). */
  template: string;
  /** Its parameter names, or `undefined` when the template is invalid (then the operation is skipped). */
  templateNames: readonly string[] | undefined;
  /** Conditions named after the template's `?` or `#`, if any. */
  suffix?: { marker: '?' | '#'; conditions: MatchCondition[] };
  pointer: string;
  pathLevelParameters: ParameterList;
}

export class OperationValidator {
  /** operationId → the operation (`GET /orders/{id}`) that declared it first. */
  private readonly operationIds = new Map<string, string>();

  constructor(private readonly context: ValidationContext) {}

  /** The operation, or `undefined` when it cannot be exposed (then it is listed as skipped). */
  validate(value: unknown, siteAsWritten: OperationSite): ApiOperation | undefined {
    const { issues } = this.context;
    const method = siteAsWritten.method.toUpperCase();
    const skip = (pointer: string, reason: string) =>
      issues.skip({ method, path: siteAsWritten.pathKey, pointer, reason });
    const resolved = this.followRef(value, siteAsWritten.pointer, skip);
    if (!resolved) return undefined;
    const { operation } = resolved;
    const site = { ...siteAsWritten, pointer: resolved.pointer };
    const operationId = this.checkOperationId(operation, site);
    const summary = optionalText(operation, 'summary', site.pointer, this.context);
    optionalText(operation, 'description', site.pointer, this.context);
    const ownParameters = collectParameters(
      ownValue(operation, 'parameters'),
      `${site.pointer}/parameters`,
      this.context,
    );
    const declared = mergeParameters(site.pathLevelParameters, ownParameters);
    if (site.templateNames) {
      checkPathParameters(site.templateNames, site.template, declared, site.pointer, this.context);
    }
    this.checkResponses(ownValue(operation, 'responses'), `${site.pointer}/responses`);
    if (ownValue(operation, 'servers') !== undefined && this.context.version !== '2.0') {
      issues.warning(
        `${site.pointer}/servers`,
        'operation servers are ignored: the API base path comes from the top-level servers',
      );
    }
    if (site.templateNames === undefined) {
      skip(site.pointer, `its path ${quoteValue(site.template)} is not a valid path template`);
      return undefined;
    }
    const requestMatch = site.suffix ? requestMatchOf(site.suffix, declared, site, this.context) : undefined;
    if (requestMatch && !requestMatch.ok) {
      skip(site.pointer, requestMatch.reason);
      return undefined;
    }
    return {
      method: method as HttpMethod,
      path: site.pathKey,
      ...(requestMatch?.match ? { requestMatch: requestMatch.match } : {}),
      pointer: site.pointer,
      ...(operationId === undefined ? {} : { operationId }),
      ...(summary === undefined ? {} : { summary }),
      pathParameters: [...site.templateNames],
    };
  }

  /** Operations cannot be `$ref`s in OpenAPI, but some documents do it; following one costs nothing. */
  private followRef(
    value: unknown,
    pointer: string,
    skip: (pointer: string, reason: string) => void,
  ): { operation: JsonObject; pointer: string } | undefined {
    const { issues, resolver } = this.context;
    let operation = value;
    let operationPointer = pointer;
    if (isJsonObject(value) && Object.hasOwn(value, '$ref')) {
      const resolved = resolver.resolve(value, pointer);
      if (!resolved.ok) {
        skip(resolved.pointer, `the operation is a $ref that cannot be followed: ${resolved.message}`);
        return undefined;
      }
      issues.warning(pointer, 'OpenAPI does not allow an operation to be a $ref; it was followed anyway');
      operation = resolved.value;
      operationPointer = resolved.pointer;
    }
    if (!isJsonObject(operation)) {
      skip(operationPointer, `an operation must be an object, found ${describeType(operation)}`);
      return undefined;
    }
    return { operation, pointer: operationPointer };
  }

  private checkOperationId(operation: JsonObject, site: OperationSite): string | undefined {
    const { issues } = this.context;
    const operationId = ownValue(operation, 'operationId');
    const idPointer = `${site.pointer}/operationId`;
    // A path item reached through two `$ref`s yields two routes sharing one operation object.
    const route = `${site.method.toUpperCase()} ${site.pathKey}`;
    if (operationId === undefined) return undefined;
    if (typeof operationId !== 'string' || operationId === '') {
      issues.warning(idPointer, `should be a non-empty string, found ${quoteValue(operationId)}; ignored`);
      return undefined;
    }
    const first = this.operationIds.get(operationId);
    if (first !== undefined && first !== route) {
      issues.warning(
        idPointer,
        `duplicate operationId ${quoteValue(operationId)}: ${route} and ${first} both use it (operations are told apart by method and path, so both are imported)`,
      );
    } else {
      this.operationIds.set(operationId, route);
    }
    return operationId;
  }

  private checkResponses(responses: unknown, pointer: string): void {
    const { issues, version } = this.context;
    if (responses === undefined) {
      // Optional since 3.1; required before.
      if (version === '3.0' || version === '2.0') {
        issues.warning(pointer, 'missing: an operation should declare its responses');
      }
      return;
    }
    if (!isJsonObject(responses)) {
      issues.warning(
        pointer,
        `should be an object of responses by status code, found ${describeType(responses)}`,
      );
      return;
    }
    const codes = Object.keys(responses).filter((key) => !isExtensionKey(key));
    if (codes.length === 0) {
      issues.warning(pointer, 'should contain at least one response, such as 200 or default');
    }
    const statusPattern = version === '2.0' ? /^[1-5]\d\d$/ : /^[1-5](\d\d|XX)$/;
    for (const code of codes) {
      const responsePointer = appendPointer(pointer, code);
      if (code !== 'default' && !statusPattern.test(code)) {
        const expected =
          version === '2.0'
            ? 'an HTTP status code or default'
            : 'an HTTP status code, a range like 4XX, or default';
        issues.warning(responsePointer, `response key ${quoteValue(code)} should be ${expected}`);
        continue;
      }
      this.checkResponse(responses[code], responsePointer);
    }
  }

  private checkResponse(response: unknown, pointer: string): void {
    const { issues } = this.context;
    if (!isJsonObject(response)) {
      issues.warning(pointer, `a response should be an object, found ${describeType(response)}`);
      return;
    }
    if (Object.hasOwn(response, '$ref')) return;
    if (typeof ownValue(response, 'description') !== 'string') {
      issues.warning(`${pointer}/description`, 'a response should have a description');
    }
  }
}

function optionalText(
  object: JsonObject,
  key: string,
  pointer: string,
  context: ValidationContext,
): string | undefined {
  const value = ownValue(object, key);
  if (value === undefined || typeof value === 'string') return value;
  context.issues.warning(`${pointer}/${key}`, `should be a string, found ${describeType(value)}; ignored`);
  return undefined;
}
