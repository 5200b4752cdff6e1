import { setImmediate as nextTurn } from 'node:timers/promises';
import { rememberJson } from '../../../core/json/known-json.js';
import type { ApiOperationRecord } from '../../../core/model/config-model.js';
import type { DefinitionIssue, SkippedOperation } from '../openapi/index.js';
import type { PreparedDocument } from './import-types.js';

/**
 * The long lists of a prepared import (operations, warnings, skipped operations) cross from the import worker to
 * the main thread as JSON texts of a few hundred items each. A structured clone of Microsoft Graph's 16,000
 * operations took the main thread 30 to 50 ms in one piece; these texts copy in microseconds and are parsed one
 * per turn of the event loop (a millisecond or two each), and their JSON is kept for the configuration row and the
 * answer, which would otherwise serialize the operations again (see core/json/known-json.ts). The operations'
 * whole JSON comes as UTF-8 bytes too (moved, not copied), so that neither has to encode it to UTF-8 again.
 */
export interface PreparedLists {
  operations: string[];
  /** `[` + the operations' chunks + `]`, UTF-8. */
  operationsUtf8?: Uint8Array;
  warnings: string[];
  skipped: string[];
}

/** About 150 KB of JSON for operations. */
const ITEMS_PER_CHUNK = 500;

/** In the worker. */
export function listsOf(prepared: PreparedDocument): PreparedLists {
  const operations = toJsonChunks(prepared.operations);
  return {
    operations,
    operationsUtf8: Buffer.from(joinedChunks(operations)),
    warnings: toJsonChunks(prepared.definition.warnings),
    skipped: toJsonChunks(prepared.definition.skipped),
  };
}

/** In the worker: the document to send along with its lists, without them. */
export function withoutLists(prepared: PreparedDocument): PreparedDocument {
  return { ...prepared, operations: [], definition: { ...prepared.definition, warnings: [], skipped: [] } };
}

/** On the main thread: the document with its lists back. */
export async function withLists(prepared: PreparedDocument, lists: PreparedLists): Promise<PreparedDocument> {
  const operations = await fromJsonChunks<ApiOperationRecord>(lists.operations, lists.operationsUtf8);
  const warnings = await fromJsonChunks<DefinitionIssue>(lists.warnings);
  const skipped = await fromJsonChunks<SkippedOperation>(lists.skipped);
  return { ...prepared, operations, definition: { ...prepared.definition, warnings, skipped } };
}

export function toJsonChunks(items: readonly unknown[]): string[] {
  const chunks: string[] = [];
  for (let start = 0; start < items.length; start += ITEMS_PER_CHUNK) {
    chunks.push(JSON.stringify(items.slice(start, start + ITEMS_PER_CHUNK)));
  }
  return chunks;
}

/** The list, frozen (like operationRecords' own), with its whole JSON remembered: `utf8` when given, else the text. */
export async function fromJsonChunks<T>(chunks: readonly string[], utf8?: Uint8Array): Promise<T[]> {
  const items: T[] = [];
  for (const chunk of chunks) {
    for (const item of JSON.parse(chunk) as T[]) items.push(item);
    await nextTurn();
  }
  Object.freeze(items);
  rememberJson(items, utf8 ?? joinedChunks(chunks));
  return items;
}

/** The JSON of the whole list its chunks hold. */
function joinedChunks(chunks: readonly string[]): string {
  return `[${chunks.map((chunk) => chunk.slice(1, -1)).join(',')}]`;
}
