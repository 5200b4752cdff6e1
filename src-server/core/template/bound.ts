/**
 * The bound tree: every name resolved to one whitelisted operation and every node typed. The evaluator
 * dispatches on `op` only; nothing here is looked up by a user-supplied name at render time except the
 * references' own keys (query parameter, path parameter and environment names).
 */

export type ValueType = 'string' | 'int' | 'bool' | 'datetime' | 'guid' | 'bytes' | 'null';

export type ApiField = 'basePath' | 'operationPath' | 'queryString' | 'pathParameter' | 'queryParameter';

export type StringMethod =
  'ToUpper' | 'ToLower' | 'Trim' | 'Substring' | 'Replace' | 'Contains' | 'StartsWith' | 'EndsWith';

export type DateUnit = 'days' | 'hours' | 'minutes';

export type ComparisonOperator = '==' | '!=' | '<' | '>' | '<=' | '>=';

interface Typed {
  type: ValueType;
  start: number;
  end: number;
}

export type BoundExpression =
  | (Typed & { op: 'literal'; value: string | number | boolean | null })
  | (Typed & { op: 'env'; variable: string; member: string | undefined; reference: string })
  | (Typed & { op: 'api'; field: ApiField; name: string | undefined; reference: string })
  | (Typed & { op: 'not'; operand: BoundExpression })
  | (Typed & { op: 'negate'; operand: BoundExpression })
  | (Typed & { op: 'add'; left: BoundExpression; right: BoundExpression })
  | (Typed & { op: 'concat'; left: BoundExpression; right: BoundExpression })
  | (Typed & { op: 'compare'; operator: ComparisonOperator; left: BoundExpression; right: BoundExpression })
  | (Typed & { op: 'and' | 'or'; left: BoundExpression; right: BoundExpression })
  | (Typed & {
      op: 'conditional';
      test: BoundExpression;
      whenTrue: BoundExpression;
      whenFalse: BoundExpression;
    })
  | (Typed & { op: 'coalesce'; left: BoundExpression; right: BoundExpression })
  | (Typed & { op: 'stringMethod'; method: StringMethod; target: BoundExpression; args: BoundExpression[] })
  | (Typed & { op: 'length'; target: BoundExpression })
  | (Typed & { op: 'now'; utc: boolean })
  | (Typed & { op: 'dateAdd'; unit: DateUnit; target: BoundExpression; amount: BoundExpression })
  /** `ToString()` of any value, with an optional format for DateTime and Guid. */
  | (Typed & { op: 'format'; target: BoundExpression; format: BoundExpression | undefined })
  | (Typed & { op: 'newGuid' })
  | (Typed & { op: 'utf8Bytes'; operand: BoundExpression })
  | (Typed & { op: 'base64'; operand: BoundExpression })
  | (Typed & { op: 'escapeDataString'; operand: BoundExpression })
  | (Typed & { op: 'isNullOrEmpty'; operand: BoundExpression; whitespace: boolean });

export type BoundReference = Extract<BoundExpression, { op: 'env' | 'api' }>;

export const TYPE_NAMES: Readonly<Record<ValueType, string>> = {
  string: 'text',
  int: 'an integer',
  bool: 'a true/false value',
  datetime: 'a DateTime',
  guid: 'a Guid',
  bytes: 'a byte array',
  null: 'null',
};

/** Calls `visit` on every node of the tree, parents first. */
export function walkBound(node: BoundExpression, visit: (node: BoundExpression) => void): void {
  visit(node);
  for (const child of childrenOf(node)) walkBound(child, visit);
}

function childrenOf(node: BoundExpression): BoundExpression[] {
  switch (node.op) {
    case 'literal':
    case 'env':
    case 'api':
    case 'now':
    case 'newGuid':
      return [];
    case 'not':
    case 'negate':
    case 'utf8Bytes':
    case 'base64':
    case 'escapeDataString':
    case 'isNullOrEmpty':
      return [node.operand];
    case 'add':
    case 'concat':
    case 'compare':
    case 'and':
    case 'or':
    case 'coalesce':
      return [node.left, node.right];
    case 'conditional':
      return [node.test, node.whenTrue, node.whenFalse];
    case 'stringMethod':
      return [node.target, ...node.args];
    case 'length':
      return [node.target];
    case 'dateAdd':
      return [node.target, node.amount];
    case 'format':
      return node.format === undefined ? [node.target] : [node.target, node.format];
  }
}
