import type { ApiOperation } from '../../../../api/types.js';
import { ALL_OPERATIONS, type PassthroughDraft } from '../draft/editor-draft.js';

/** One row of the operations list. */
export interface OperationItem {
  /** `allOperations` or the operation key. */
  key: string;
  operation?: ApiOperation;
  /** The item has its own entry (for All operations: it is configured). */
  ownEntry: boolean;
  /** The last refused save named problems in its entry. */
  hasErrors: boolean;
}

function matches(operation: ApiOperation, words: string[]): boolean {
  const text =
    `${operation.method} ${operation.path} ${operation.operationId ?? ''} ${operation.summary ?? ''}`.toLowerCase();
  return words.every((word) => text.includes(word));
}

/** `All operations` first, then the operations matching every word of the filter (method, path, id, summary). */
export function operationItems(
  operations: readonly ApiOperation[],
  draft: PassthroughDraft,
  entriesWithErrors: ReadonlySet<string>,
  filter: string,
): OperationItem[] {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  const items: OperationItem[] = [
    {
      key: ALL_OPERATIONS,
      ownEntry: draft.allOperations !== undefined,
      hasErrors: entriesWithErrors.has(ALL_OPERATIONS),
    },
  ];
  for (const operation of operations) {
    if (words.length > 0 && !matches(operation, words)) continue;
    items.push({
      key: operation.key,
      operation,
      ownEntry: Object.hasOwn(draft.operations, operation.key),
      hasErrors: entriesWithErrors.has(operation.key),
    });
  }
  return items;
}

export function itemStatus(item: OperationItem, allOperationsConfigured: boolean): string {
  if (!item.operation) return item.ownEntry ? 'Forwards every operation' : 'Not configured';
  if (item.ownEntry) return 'Own entry';
  return allOperationsConfigured ? 'Uses All operations' : 'Not forwarded';
}
