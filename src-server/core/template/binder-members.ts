import { BindFailure } from './bind-failure.js';
import type { BoundExpression, StringMethod, ValueType } from './bound.js';
import { TYPE_NAMES } from './bound.js';
import { checkDateTimeFormat } from './dotnet-date-format.js';
import { formatGuid } from './dotnet-guid.js';
import type { ReferencePart, ReferenceRoot } from './references.js';
import { resolveReference } from './references.js';
import { DATETIME_MEMBERS, GUID_MEMBERS, STATIC_FUNCTIONS, STRING_MEMBERS } from './supported.js';
import type { SyntaxNode } from './syntax.js';
import type { TemplateCompileContext } from './types.js';

/** Binding of references, properties, methods and the few static .NET members the language knows. */

type BindChild = (node: SyntaxNode) => BoundExpression;
type AccessNode = Extract<SyntaxNode, { type: 'reference' | 'member' | 'index' }>;
type CallNode = Extract<SyntaxNode, { type: 'call' }>;
type Range = { start: number; end: number };

export const STATIC_TYPES: ReadonlySet<string> = new Set([
  'DateTime',
  'Guid',
  'Convert',
  'Encoding',
  'Uri',
  'string',
  'String',
]);

const TEXT_METHODS: ReadonlyMap<
  string,
  { method: StringMethod; args: ValueType[][]; result: ValueType; signature: string }
> = new Map([
  ['ToUpper', { method: 'ToUpper', args: [[]], result: 'string', signature: 'ToUpper()' }],
  ['ToLower', { method: 'ToLower', args: [[]], result: 'string', signature: 'ToLower()' }],
  ['Trim', { method: 'Trim', args: [[]], result: 'string', signature: 'Trim()' }],
  [
    'Substring',
    {
      method: 'Substring',
      args: [['int'], ['int', 'int']],
      result: 'string',
      signature: 'Substring(start[, length])',
    },
  ],
  [
    'Replace',
    { method: 'Replace', args: [['string', 'string']], result: 'string', signature: 'Replace(old, new)' },
  ],
  ['Contains', { method: 'Contains', args: [['string']], result: 'bool', signature: 'Contains(text)' }],
  ['StartsWith', { method: 'StartsWith', args: [['string']], result: 'bool', signature: 'StartsWith(text)' }],
  ['EndsWith', { method: 'EndsWith', args: [['string']], result: 'bool', signature: 'EndsWith(text)' }],
]);

const DATE_UNITS = { AddDays: 'days', AddHours: 'hours', AddMinutes: 'minutes' } as const;

export function bindAccess(
  node: AccessNode,
  context: TemplateCompileContext,
  bind: BindChild,
): BoundExpression {
  const chain = referenceChain(node);
  if (chain !== undefined) {
    const resolved = resolveReference(chain.root, chain.parts, context);
    if (!resolved.ok) {
      throw new BindFailure(
        { start: resolved.error.position, end: resolved.error.position + resolved.error.length },
        resolved.error.message,
      );
    }
    let current: BoundExpression = resolved.node;
    for (const part of chain.parts.slice(resolved.consumed)) {
      if (part.bracket) {
        throw new BindFailure(
          part,
          '[ ] can only name a query parameter, a path parameter or an environment variable or member',
        );
      }
      current = bindProperty(current, part.name, { start: node.start, end: part.end }, part);
    }
    return current;
  }
  if (node.type === 'index') {
    throw new BindFailure(node, '[ ] can only follow a reference, e.g. #api.QueryParameters["page-size"]');
  }
  if (node.type === 'reference') throw new Error('a reference is always a chain root');
  const nameAt = { start: node.nameStart, end: node.end };
  if (node.target.type === 'identifier' && STATIC_TYPES.has(node.target.name)) {
    return bindStaticProperty(node.target.name, node.name, node, nameAt);
  }
  return bindProperty(bind(node.target), node.name, node, nameAt);
}

export function bindCall(node: CallNode, bind: BindChild): BoundExpression {
  const callee = node.callee;
  if (callee.type !== 'member') {
    const name = callee.type === 'identifier' ? callee.name : '';
    const hint = TEXT_METHODS.has(name)
      ? ` ${name}() is called on a value, e.g. #api.QueryParameters.id.${name}()`
      : '';
    throw new BindFailure(
      callee,
      `unknown function '${name}'.${hint} Supported functions: ${STATIC_FUNCTIONS}`,
    );
  }
  const nameAt = { start: callee.nameStart, end: callee.end };
  const target = callee.target;
  if (target.type === 'identifier' && STATIC_TYPES.has(target.name)) {
    return bindStaticCall(target.name, callee.name, node, nameAt, bind);
  }
  if (target.type === 'member' && target.target.type === 'identifier' && target.target.name === 'Encoding') {
    if (target.name !== 'UTF8' || callee.name !== 'GetBytes') {
      throw new BindFailure(target, 'only Encoding.UTF8.GetBytes(text) is supported');
    }
    const [text] = bindArguments(node, [['string']], 'Encoding.UTF8.GetBytes(text)', bind);
    return {
      op: 'utf8Bytes',
      type: 'bytes',
      operand: text as BoundExpression,
      start: node.start,
      end: node.end,
    };
  }
  return bindMethod(bind(target), callee.name, node, nameAt, bind);
}

function bindProperty(target: BoundExpression, name: string, whole: Range, nameAt: Range): BoundExpression {
  if (target.type === 'string' && name === 'Length') {
    return { op: 'length', type: 'int', target, start: whole.start, end: whole.end };
  }
  const isMethod = TEXT_METHODS.has(name) || name === 'ToString' || Object.hasOwn(DATE_UNITS, name);
  const hint = isMethod
    ? `'${name}' is a method; call it: ${name}(…)`
    : `'${name}' is not a property of ${TYPE_NAMES[target.type]}`;
  throw new BindFailure(nameAt, `${hint}. Members of ${TYPE_NAMES[target.type]}: ${membersOf(target.type)}`);
}

function bindStaticProperty(typeName: string, name: string, whole: Range, nameAt: Range): BoundExpression {
  if (typeName === 'DateTime' && (name === 'UtcNow' || name === 'Now')) {
    return { op: 'now', type: 'datetime', utc: name === 'UtcNow', start: whole.start, end: whole.end };
  }
  if (typeName === 'Encoding' && name === 'UTF8') {
    throw new BindFailure(whole, 'Encoding.UTF8 is only usable as Encoding.UTF8.GetBytes(text)');
  }
  throw new BindFailure(nameAt, `'${typeName}.${name}' is not supported. Supported: ${STATIC_FUNCTIONS}`);
}

function bindStaticCall(
  typeName: string,
  name: string,
  node: CallNode,
  nameAt: Range,
  bind: BindChild,
): BoundExpression {
  const at = { start: node.start, end: node.end };
  const qualified = `${typeName}.${name}`;
  switch (qualified) {
    case 'Guid.NewGuid':
      bindArguments(node, [[]], 'Guid.NewGuid()', bind);
      return { op: 'newGuid', type: 'guid', ...at };
    case 'Convert.ToBase64String': {
      const [bytes] = bindArguments(
        node,
        [['bytes']],
        'Convert.ToBase64String(Encoding.UTF8.GetBytes(text))',
        bind,
      );
      return { op: 'base64', type: 'string', operand: bytes as BoundExpression, ...at };
    }
    case 'Uri.EscapeDataString': {
      const [text] = bindArguments(node, [['string']], 'Uri.EscapeDataString(text)', bind);
      return { op: 'escapeDataString', type: 'string', operand: text as BoundExpression, ...at };
    }
    case 'string.IsNullOrEmpty':
    case 'String.IsNullOrEmpty':
    case 'string.IsNullOrWhiteSpace':
    case 'String.IsNullOrWhiteSpace': {
      const [text] = bindArguments(node, [['string']], `${qualified}(text)`, bind);
      return {
        op: 'isNullOrEmpty',
        type: 'bool',
        operand: text as BoundExpression,
        whitespace: name === 'IsNullOrWhiteSpace',
        ...at,
      };
    }
  }
  throw new BindFailure(nameAt, `'${qualified}(…)' is not supported. Supported: ${STATIC_FUNCTIONS}`);
}

function bindMethod(
  target: BoundExpression,
  name: string,
  node: CallNode,
  nameAt: Range,
  bind: BindChild,
): BoundExpression {
  const at = { start: node.start, end: node.end };
  if (name === 'ToString') return bindToString(target, node, bind);
  if (target.type === 'string') {
    const method = TEXT_METHODS.get(name);
    if (method !== undefined) {
      const args = bindArguments(node, method.args, method.signature, bind);
      return { op: 'stringMethod', type: method.result, method: method.method, target, args, ...at };
    }
  }
  if (target.type === 'datetime' && Object.hasOwn(DATE_UNITS, name)) {
    const [amount] = bindArguments(node, [['int']], `${name}(n)`, bind);
    const unit = DATE_UNITS[name as keyof typeof DATE_UNITS];
    return { op: 'dateAdd', type: 'datetime', unit, target, amount: amount as BoundExpression, ...at };
  }
  const hint =
    name === 'Length' && target.type === 'string'
      ? "'Length' is a property; write .Length without ()"
      : `'${name}()' is not supported on ${TYPE_NAMES[target.type]}`;
  throw new BindFailure(nameAt, `${hint}. Members of ${TYPE_NAMES[target.type]}: ${membersOf(target.type)}`);
}

function bindToString(target: BoundExpression, node: CallNode, bind: BindChild): BoundExpression {
  const at = { start: node.start, end: node.end };
  const formattable = target.type === 'datetime' || target.type === 'guid';
  if (target.type === 'bytes' || target.type === 'null') {
    throw new BindFailure(node, `ToString() is not supported on ${TYPE_NAMES[target.type]}`);
  }
  const args = bindArguments(
    node,
    formattable ? [[], ['string']] : [[]],
    formattable ? 'ToString([format])' : 'ToString()',
    bind,
  );
  const format = args[0];
  if (format?.op === 'literal' && typeof format.value === 'string') {
    const problem =
      target.type === 'datetime' ? checkDateTimeFormat(format.value) : guidFormatProblem(format.value);
    if (problem !== undefined) throw new BindFailure(format, `invalid format: ${problem}`);
  }
  return { op: 'format', type: 'string', target, format, ...at };
}

function guidFormatProblem(format: string): string | undefined {
  const result = formatGuid('0'.repeat(32), format);
  return result.ok ? undefined : result.message;
}

/** Binds and checks the arguments against the accepted parameter lists; `string` parameters accept null. */
function bindArguments(
  node: CallNode,
  accepted: ValueType[][],
  signature: string,
  bind: BindChild,
): BoundExpression[] {
  const parameters = accepted.find((list) => list.length === node.args.length);
  if (parameters === undefined) {
    throw new BindFailure(node, `wrong number of arguments; the form is ${signature}`);
  }
  return node.args.map((argument, index) => {
    const bound = bind(argument);
    const expected = parameters[index] as ValueType;
    const fits = bound.type === expected || (expected === 'string' && bound.type === 'null');
    if (!fits) {
      throw new BindFailure(
        bound,
        `argument ${index + 1} of ${signature} must be ${TYPE_NAMES[expected]}, not ${TYPE_NAMES[bound.type]}`,
      );
    }
    return bound;
  });
}

function referenceChain(node: AccessNode): { root: ReferenceRoot; parts: ReferencePart[] } | undefined {
  const parts: ReferencePart[] = [];
  let current: SyntaxNode = node;
  while (current.type === 'member' || current.type === 'index') {
    parts.push(
      current.type === 'member'
        ? { name: current.name, start: current.nameStart, end: current.end, bracket: false }
        : { name: current.key, start: current.keyStart, end: current.keyEnd, bracket: true },
    );
    current = current.target;
  }
  if (current.type !== 'reference') return undefined;
  parts.reverse();
  return { root: { name: current.root, start: current.start, end: current.end }, parts };
}

function membersOf(type: ValueType): string {
  switch (type) {
    case 'string':
      return STRING_MEMBERS;
    case 'datetime':
      return DATETIME_MEMBERS;
    case 'guid':
      return GUID_MEMBERS;
    case 'int':
    case 'bool':
      return 'ToString()';
    case 'bytes':
      return 'none (pass it to Convert.ToBase64String)';
    case 'null':
      return 'none';
  }
}
