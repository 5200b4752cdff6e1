import { BindFailure } from './bind-failure.js';
import { bindAccess, bindCall, STATIC_TYPES } from './binder-members.js';
import type { BoundExpression, ComparisonOperator, ValueType } from './bound.js';
import { TYPE_NAMES } from './bound.js';
import type { SourceError } from './source-error.js';
import { describeSupported } from './supported.js';
import type { SyntaxNode } from './syntax.js';
import type { TemplateCompileContext } from './types.js';

/**
 * Resolves names and checks types, turning the syntax tree into a bound tree of whitelisted operations.
 * Everything outside the supported subset is refused here, with its position.
 */

export type BindResult = { ok: true; expression: BoundExpression } | { ok: false; error: SourceError };

export type BindChild = (node: SyntaxNode) => BoundExpression;

export function bindExpression(node: SyntaxNode, context: TemplateCompileContext): BindResult {
  const bind: BindChild = (child) => bindNode(child, context, bind);
  try {
    return { ok: true, expression: bind(node) };
  } catch (error) {
    if (error instanceof BindFailure) return { ok: false, error: error.detail };
    throw error;
  }
}

function bindNode(node: SyntaxNode, context: TemplateCompileContext, bind: BindChild): BoundExpression {
  switch (node.type) {
    case 'string':
      return { op: 'literal', type: 'string', value: node.value, start: node.start, end: node.end };
    case 'integer':
      return { op: 'literal', type: 'int', value: node.value, start: node.start, end: node.end };
    case 'identifier':
      return bindIdentifier(node);
    case 'reference':
    case 'member':
    case 'index':
      return bindAccess(node, context, bind);
    case 'group':
      return bind(node.inner);
    case 'call':
      return bindCall(node, bind);
    case 'unary': {
      const operand = bind(node.operand);
      if (node.operator === '!') {
        expectType(operand, 'bool', "'!' needs a true/false value");
        return { op: 'not', type: 'bool', operand, start: node.start, end: node.end };
      }
      expectType(operand, 'int', "the sign '-' needs an integer");
      return { op: 'negate', type: 'int', operand, start: node.start, end: node.end };
    }
    case 'binary':
      return bindBinary(node, bind);
    case 'conditional': {
      const test = bind(node.test);
      expectType(test, 'bool', "the condition of '?:' must be a true/false value");
      const whenTrue = bind(node.whenTrue);
      const whenFalse = bind(node.whenFalse);
      const type = commonType(whenTrue.type, whenFalse.type);
      if (type === undefined) {
        throw new BindFailure(
          node,
          `both results of '?:' must have the same type; here they are ${TYPE_NAMES[whenTrue.type]} and ${TYPE_NAMES[whenFalse.type]}`,
        );
      }
      return { op: 'conditional', type, test, whenTrue, whenFalse, start: node.start, end: node.end };
    }
  }
}

function bindIdentifier(node: Extract<SyntaxNode, { type: 'identifier' }>): BoundExpression {
  const at = { start: node.start, end: node.end };
  switch (node.name) {
    case 'true':
    case 'false':
      return { op: 'literal', type: 'bool', value: node.name === 'true', ...at };
    case 'null':
      return { op: 'literal', type: 'null', value: null, ...at };
  }
  if (STATIC_TYPES.has(node.name)) {
    throw new BindFailure(
      at,
      `'${node.name}' is a type; use one of its members, e.g. ${exampleOf(node.name)}`,
    );
  }
  if (node.name === 'env' || node.name === 'api') {
    throw new BindFailure(at, `unknown name '${node.name}'; references start with '#': #${node.name}.…`);
  }
  throw new BindFailure(at, `unknown name '${node.name}'. ${describeSupported()}`);
}

function bindBinary(node: Extract<SyntaxNode, { type: 'binary' }>, bind: BindChild): BoundExpression {
  const left = bind(node.left);
  const right = bind(node.right);
  const at = { start: node.start, end: node.end };
  const operatorAt = { start: node.operatorStart, end: node.operatorStart + node.operator.length };
  switch (node.operator) {
    case '+': {
      if (left.type === 'int' && right.type === 'int') return { op: 'add', type: 'int', left, right, ...at };
      const joinsText =
        (left.type === 'string' || right.type === 'string') &&
        left.type !== 'bytes' &&
        right.type !== 'bytes';
      if (!joinsText) {
        throw new BindFailure(
          operatorAt,
          `'+' joins text or adds integers; it cannot combine ${TYPE_NAMES[left.type]} and ${TYPE_NAMES[right.type]}`,
        );
      }
      return { op: 'concat', type: 'string', left, right, ...at };
    }
    case '==':
    case '!=':
      if (commonType(left.type, right.type) === undefined || left.type === 'bytes') {
        throw new BindFailure(
          operatorAt,
          `'${node.operator}' compares two values of the same type; here they are ${TYPE_NAMES[left.type]} and ${TYPE_NAMES[right.type]}`,
        );
      }
      return compare(node.operator, left, right, at);
    case '<':
    case '>':
    case '<=':
    case '>=':
      if (left.type !== right.type || (left.type !== 'int' && left.type !== 'datetime')) {
        throw new BindFailure(operatorAt, `'${node.operator}' compares two integers or two DateTimes`);
      }
      return compare(node.operator, left, right, at);
    case '&&':
    case '||':
      expectType(left, 'bool', `'${node.operator}' needs true/false values`);
      expectType(right, 'bool', `'${node.operator}' needs true/false values`);
      return { op: node.operator === '&&' ? 'and' : 'or', type: 'bool', left, right, ...at };
    case '??':
      if (!isText(left.type) || !isText(right.type)) {
        throw new BindFailure(
          operatorAt,
          `'??' gives a default for text that may be null; it cannot combine ${TYPE_NAMES[left.type]} and ${TYPE_NAMES[right.type]}`,
        );
      }
      return { op: 'coalesce', type: 'string', left, right, ...at };
  }
}

function compare(
  operator: ComparisonOperator,
  left: BoundExpression,
  right: BoundExpression,
  at: { start: number; end: number },
): BoundExpression {
  return { op: 'compare', type: 'bool', operator, left, right, ...at };
}

/** The type of a value that is one of two types: equal types, or text and null. */
function commonType(a: ValueType, b: ValueType): ValueType | undefined {
  if (a === b) return a;
  if (isText(a) && isText(b)) return 'string';
  return undefined;
}

function isText(type: ValueType): boolean {
  return type === 'string' || type === 'null';
}

export function expectType(node: BoundExpression, type: ValueType, message: string): void {
  if (node.type !== type) throw new BindFailure(node, `${message}, not ${TYPE_NAMES[node.type]}`);
}

function exampleOf(typeName: string): string {
  switch (typeName) {
    case 'DateTime':
      return 'DateTime.UtcNow.ToString("yyyy-MM-dd")';
    case 'Guid':
      return 'Guid.NewGuid()';
    case 'Convert':
    case 'Encoding':
      return 'Convert.ToBase64String(Encoding.UTF8.GetBytes(text))';
    case 'Uri':
      return 'Uri.EscapeDataString(text)';
    default:
      return 'string.IsNullOrEmpty(text)';
  }
}
