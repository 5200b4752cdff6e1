import type { BoundExpression, ComparisonOperator, StringMethod, ValueType } from './bound.js';
import { formatDateTime } from './dotnet-date-format.js';
import type { DotnetDateTime } from './dotnet-datetime.js';
import { addUnits, localNow, utcNow } from './dotnet-datetime.js';
import { formatGuid, normalizeGuid } from './dotnet-guid.js';
import { percentEncodeComponent } from './encoding.js';
import { MAX_VALUE_LENGTH } from './limits.js';
import type { RenderErrorKind, RenderScope } from './types.js';
import type { Data, GuidValue, Taint, Value } from './value.js';
import { CONFIGURATION, ESCAPED_REQUEST_DATA, REQUEST_DATA, maxTaint, textOf } from './value.js';
import { ErrorCode } from '../contracts/error-codes.js';
import { GatehouseError } from '../errors/gatehouse-error.js';

/** Tree-walking evaluation of a bound expression. Failures are thrown as `EvaluationFailure`. */

export class EvaluationFailure extends GatehouseError {
  constructor(
    readonly kind: RenderErrorKind,
    message: string,
    readonly reference?: string,
  ) {
    super(ErrorCode.GH_ERR_TEMPLATE_RENDER, message);
  }
}

export interface EvaluationEnvironment {
  readonly scope: RenderScope;
  /** One instant per render, so every DateTime.Now of a request agrees. */
  now: () => Date;
}

export function evaluate(node: BoundExpression, environment: EvaluationEnvironment): Value {
  switch (node.op) {
    case 'literal':
      return { data: node.value, taint: CONFIGURATION, secret: false };
    case 'env': {
      const found = environment.scope.env(node.variable, node.member);
      if (found === undefined) {
        throw new EvaluationFailure(
          'missing-reference',
          `${node.reference} has no value in this environment`,
          node.reference,
        );
      }
      return { data: bounded(found.value, node.reference), taint: CONFIGURATION, secret: found.secret };
    }
    case 'api':
      return evaluateApi(node, environment.scope);
    case 'not': {
      const operand = evaluate(node.operand, environment);
      return { ...operand, data: !operand.data };
    }
    case 'negate': {
      const operand = evaluate(node.operand, environment);
      return { ...operand, data: -(operand.data as number) | 0 };
    }
    case 'add': {
      const left = evaluate(node.left, environment);
      const right = evaluate(node.right, environment);
      return combine(((left.data as number) + (right.data as number)) | 0, left, right);
    }
    case 'concat': {
      const left = evaluate(node.left, environment);
      const right = evaluate(node.right, environment);
      const leftText = textOf(left.data, node.left.type);
      const rightText = textOf(right.data, node.right.type);
      checkLength(leftText.length + rightText.length);
      return combine(leftText + rightText, left, right);
    }
    case 'compare': {
      const left = evaluate(node.left, environment);
      const right = evaluate(node.right, environment);
      return combine(compare(node.operator, left.data, right.data, node.left.type), left, right);
    }
    case 'and':
    case 'or': {
      const left = evaluate(node.left, environment);
      if ((node.op === 'and') !== left.data) return left;
      const right = evaluate(node.right, environment);
      return combine(right.data, left, right);
    }
    case 'conditional': {
      const test = evaluate(node.test, environment);
      const chosen = evaluate(test.data ? node.whenTrue : node.whenFalse, environment);
      // Which branch was taken depends on the condition, so a secret condition makes the result secret.
      return test.secret ? { ...chosen, secret: true } : chosen;
    }
    case 'coalesce': {
      const left = evaluate(node.left, environment);
      if (left.data !== null) return left;
      const right = evaluate(node.right, environment);
      return left.secret ? { ...right, secret: true } : right;
    }
    case 'stringMethod':
      return evaluateStringMethod(node, environment);
    case 'length': {
      const target = evaluate(node.target, environment);
      return { ...target, data: requireText(target.data, node.target, 'Length').length };
    }
    case 'now': {
      const instant = environment.now();
      return { data: node.utc ? utcNow(instant) : localNow(instant), taint: CONFIGURATION, secret: false };
    }
    case 'dateAdd': {
      const target = evaluate(node.target, environment);
      const amount = evaluate(node.amount, environment);
      const shifted = addUnits(target.data as DotnetDateTime, node.unit, amount.data as number);
      if (shifted === undefined) throw failure('the date is outside the supported range (years 1 to 9999)');
      return combine(shifted, target, amount);
    }
    case 'format':
      return evaluateFormat(node, environment);
    case 'newGuid': {
      const generated = environment.scope.newGuid();
      const hex = normalizeGuid(generated);
      if (hex === undefined)
        throw new TypeError('RenderScope.newGuid() must return a GUID such as crypto.randomUUID()');
      const guid: GuidValue = { hex };
      return { data: guid, taint: CONFIGURATION, secret: false };
    }
    case 'utf8Bytes': {
      const operand = evaluate(node.operand, environment);
      return {
        ...operand,
        data: Buffer.from(requireText(operand.data, node.operand, 'Encoding.UTF8.GetBytes'), 'utf8'),
      };
    }
    case 'base64': {
      const operand = evaluate(node.operand, environment);
      const encoded = Buffer.from(operand.data as Uint8Array).toString('base64');
      checkLength(encoded.length);
      return { ...operand, data: encoded };
    }
    case 'escapeDataString': {
      const operand = evaluate(node.operand, environment);
      const escaped = percentEncodeComponent(requireText(operand.data, node.operand, 'Uri.EscapeDataString'));
      checkLength(escaped.length);
      const taint: Taint = operand.taint === REQUEST_DATA ? ESCAPED_REQUEST_DATA : operand.taint;
      return { data: escaped, taint, secret: operand.secret };
    }
    case 'isNullOrEmpty': {
      const operand = evaluate(node.operand, environment);
      const text = operand.data as string | null;
      const empty = text === null || (node.whitespace ? text.trim() === '' : text === '');
      return { ...operand, data: empty };
    }
  }
}

function evaluateApi(node: Extract<BoundExpression, { op: 'api' }>, scope: RenderScope): Value {
  const api = scope.api;
  switch (node.field) {
    case 'basePath':
      return { data: bounded(api.basePath, node.reference), taint: CONFIGURATION, secret: false };
    case 'operationPath':
      return requestValue(api.operationPath, node.reference);
    case 'queryString':
      return requestValue(api.queryString, node.reference);
    case 'pathParameter': {
      const name = node.name as string;
      return requestValue(
        Object.hasOwn(api.pathParameters, name) ? (api.pathParameters[name] ?? null) : null,
        node.reference,
      );
    }
    case 'queryParameter':
      return requestValue(queryParameter(api, node.name as string), node.reference);
  }
}

/** First value of the parameter; names match exactly first, then ignoring case (as ASP.NET does). */
function queryParameter(api: RenderScope['api'], name: string): string | null {
  const raw = api.queryString;
  if (!raw.startsWith('?') && !DECODED_IN_QUERY.test(raw)) return plainQueryParameter(raw, name);
  const query = api.query;
  const exact = query.get(name);
  if (exact !== null) return exact;
  const lowerName = name.toLowerCase();
  for (const [key, value] of query) {
    if (key.toLowerCase() === lowerName) return value;
  }
  return null;
}

/**
 * What URLSearchParams decodes (`%`, `+`) or converts (anything beyond ASCII); a query without them, and without
 * a leading `?` (which it drops), reads as written, so no URLSearchParams needs to be built.
 */
const DECODED_IN_QUERY = /[%+\u0080-\uffff]/;

/** `queryParameter` over a plain query, pair by pair as URLSearchParams splits it, without building one. */
function plainQueryParameter(query: string, name: string): string | null {
  let caseless: string | null = null;
  const lowerName = name.toLowerCase();
  for (let start = 0; start < query.length;) {
    let end = query.indexOf('&', start);
    if (end === -1) end = query.length;
    if (end > start) {
      const equals = query.indexOf('=', start);
      const nameEnd = equals === -1 || equals > end ? end : equals;
      const key = query.slice(start, nameEnd);
      const value = nameEnd === end ? '' : query.slice(nameEnd + 1, end);
      if (key === name) return value;
      if (caseless === null && key.toLowerCase() === lowerName) caseless = value;
    }
    start = end + 1;
  }
  return caseless;
}

function evaluateStringMethod(
  node: Extract<BoundExpression, { op: 'stringMethod' }>,
  environment: EvaluationEnvironment,
): Value {
  const target = evaluate(node.target, environment);
  const text = requireText(target.data, node.target, node.method);
  let taint = target.taint;
  let secret = target.secret;
  const args: Data[] = [];
  for (const argument of node.args) {
    const value = evaluate(argument, environment);
    args.push(value.data);
    taint = maxTaint(taint, value.taint);
    secret ||= value.secret;
  }
  return { data: applyStringMethod(node.method, text, args), taint, secret };
}

function applyStringMethod(method: StringMethod, text: string, args: readonly Data[]): Data {
  switch (method) {
    case 'ToUpper':
      return text.toUpperCase();
    case 'ToLower':
      return text.toLowerCase();
    case 'Trim':
      return text.trim();
    case 'Substring': {
      const start = args[0] as number;
      const length = args.length > 1 ? (args[1] as number) : text.length - start;
      // Messages carry no numbers: they could tell the length of a secret.
      if (start < 0 || start > text.length) throw failure('Substring: the start is outside the text');
      if (length < 0 || start + length > text.length) {
        throw failure('Substring: the length goes beyond the end of the text');
      }
      return text.substring(start, start + length);
    }
    case 'Replace': {
      const oldText = args[0] as string | null;
      const newText = (args[1] as string | null) ?? '';
      if (oldText === null || oldText === '')
        throw failure('Replace: the text to replace cannot be null or empty');
      const pieces = text.split(oldText);
      checkLength(text.length + (pieces.length - 1) * (newText.length - oldText.length));
      return pieces.join(newText);
    }
    case 'Contains':
    case 'StartsWith':
    case 'EndsWith': {
      const search = args[0] as string | null;
      if (search === null) throw failure(`${method}: the argument cannot be null`);
      if (method === 'Contains') return text.includes(search);
      return method === 'StartsWith' ? text.startsWith(search) : text.endsWith(search);
    }
  }
}

function evaluateFormat(
  node: Extract<BoundExpression, { op: 'format' }>,
  environment: EvaluationEnvironment,
): Value {
  const target = evaluate(node.target, environment);
  if (node.format === undefined) {
    const text =
      node.target.type === 'string'
        ? requireText(target.data, node.target, 'ToString')
        : textOf(target.data, node.target.type);
    return { ...target, data: text };
  }
  const format = evaluate(node.format, environment);
  const formatText = (format.data as string | null) ?? '';
  const formatted =
    node.target.type === 'datetime'
      ? formatDateTime(target.data as DotnetDateTime, formatText)
      : formatGuid((target.data as GuidValue).hex, formatText);
  // The format text may come from the request or a secret, so the message does not repeat it.
  if (!formatted.ok) {
    throw failure(
      `the format given to ToString is not a valid ${node.target.type === 'datetime' ? 'date' : 'Guid'} format`,
    );
  }
  checkLength(formatted.text.length);
  return combine(formatted.text, target, format);
}

function compare(operator: ComparisonOperator, left: Data, right: Data, type: ValueType): boolean {
  const a = comparable(left, type);
  const b = comparable(right, type);
  switch (operator) {
    case '==':
      return a === b;
    case '!=':
      return a !== b;
    case '<':
      return (a as number) < (b as number);
    case '>':
      return (a as number) > (b as number);
    case '<=':
      return (a as number) <= (b as number);
    case '>=':
      return (a as number) >= (b as number);
  }
}

/** A primitive that compares like the .NET value: DateTimes by wall-clock time, Guids by digits. */
function comparable(data: Data, type: ValueType): string | number | boolean | null {
  if (data === null) return null;
  if (type === 'datetime') return (data as DotnetDateTime).wallMs;
  if (type === 'guid') return (data as GuidValue).hex;
  return data as string | number | boolean;
}

function combine(data: Data, a: Value, b: Value): Value {
  return { data, taint: maxTaint(a.taint, b.taint), secret: a.secret || b.secret };
}

function requestValue(text: string | null, reference: string): Value {
  return { data: text === null ? null : bounded(text, reference), taint: REQUEST_DATA, secret: false };
}

function requireText(data: Data, node: BoundExpression, what: string): string {
  if (data !== null) return data as string;
  const subject = node.op === 'env' || node.op === 'api' ? node.reference : 'the text';
  throw new EvaluationFailure(
    'expression-error',
    `${what}: ${subject} is null (for a query parameter: absent from the request); give a default with ??`,
    node.op === 'env' || node.op === 'api' ? node.reference : undefined,
  );
}

function bounded(text: string, reference: string): string {
  if (text.length > MAX_VALUE_LENGTH) {
    throw new EvaluationFailure(
      'expression-error',
      `${reference} is longer than ${MAX_VALUE_LENGTH} characters`,
      reference,
    );
  }
  return text;
}

function checkLength(length: number): void {
  if (length > MAX_VALUE_LENGTH) throw failure(`a value would be longer than ${MAX_VALUE_LENGTH} characters`);
}

function failure(message: string): EvaluationFailure {
  return new EvaluationFailure('expression-error', message);
}
