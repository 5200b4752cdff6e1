import { templateShape } from '../../../core/paths/path-template.js';
import { splitPathKey } from '../../../core/paths/request-match.js';
import type { ApiOperation } from './types.js';

/**
 * Compares the operations of two imports of the same API, matched by method and path. Paths are
 * compared by shape, so `/orders/{id}` → `/orders/{orderId}` (a renamed parameter) is kept: both
 * match exactly the same requests. Methods compare case-insensitively. Duplicates (impossible in a
 * valid definition) are matched once; the extras count as added or removed.
 */
export interface OperationsDiff<Operation extends OperationKey = ApiOperation> {
  /** In the order of the new definition. `before.path` and `after.path` may differ in parameter names. */
  kept: Array<{ before: Operation; after: Operation }>;
  /** In the order of the new definition. */
  added: Operation[];
  /** In the order of the old definition. */
  removed: Operation[];
}

/** The fields operations are matched by; stored passthrough configurations qualify too. */
export interface OperationKey {
  method: string;
  path: string;
}

export function operationKey(operation: OperationKey): string {
  const { template, suffix } = splitPathKey(operation.path);
  const rest = suffix ? `${suffix.marker}${suffix.text}` : '';
  return `${operation.method.toUpperCase()} ${templateShape(template)}${rest}`;
}

export function diffOperations<Operation extends OperationKey>(
  before: { operations: readonly Operation[] } | readonly Operation[],
  after: { operations: readonly Operation[] } | readonly Operation[],
): OperationsDiff<Operation> {
  const oldOperations = operationsOf(before);
  const newOperations = operationsOf(after);
  const oldByKey = new Map<string, Operation>();
  for (const operation of oldOperations) {
    const key = operationKey(operation);
    if (!oldByKey.has(key)) oldByKey.set(key, operation);
  }
  const matched = new Set<Operation>();
  const kept: Array<{ before: Operation; after: Operation }> = [];
  const added: Operation[] = [];
  for (const operation of newOperations) {
    const previous = oldByKey.get(operationKey(operation));
    if (previous !== undefined && !matched.has(previous)) {
      matched.add(previous);
      kept.push({ before: previous, after: operation });
    } else {
      added.push(operation);
    }
  }
  const removed = oldOperations.filter((operation) => !matched.has(operation));
  return { kept, added, removed };
}

function operationsOf<Operation>(
  source: { operations: readonly Operation[] } | readonly Operation[],
): readonly Operation[] {
  return Array.isArray(source)
    ? (source as readonly Operation[])
    : (source as { operations: readonly Operation[] }).operations;
}
