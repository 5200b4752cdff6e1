import { setImmediate as nextTurn } from 'node:timers/promises';
import { rememberJson } from '../../../core/json/known-json.js';
import type { ApiOperationRecord } from '../../../core/model/config-model.js';
import type { DefinitionIssue, SkippedOperation } from '../openapi/index.js';
import type { PreparedDocument } from './import-types.js';

/**
 * The long lists of a prepared import (operations, warnings, skipped operations) cross from the import worker to
 * the main thread as the UTF-8 bytes of each list's JSON (moved, not copied), with the byte offsets of chunks of a
 * few hundred items. A structured clone of Microsoft Graph's 16,000 operations took the main thread 30 to 50 ms in
 * one piece; the chunks are decoded and parsed one per turn of the event loop (a millisecond or so each), and the
 * bytes are kept for the configuration row and the answer, which would otherwise serialize the list again (see
 * core/json/known-json.ts). The chunks are decoded from the bytes as they are parsed, not sent as texts beside them:
 * 4 MB of texts cloned into the main thread's heap (large-object pages, fresh memory every import) were live
 * until the last chunk was parsed, and were one more reason for its full garbage collections.
 */
export interface JsonChunks {
  /** The list's JSON: `[` + the items, comma-separated + `]`. */
  utf8: Uint8Array;
  /** Chunk i is the items between byte offsets bounds[i] and bounds[i + 1] - 1 (the comma before the next). */
  bounds: number[];
}

export interface PreparedLists {
  operations: JsonChunks;
  warnings: JsonChunks;
  skipped: JsonChunks;
}

/** About 60 KB of JSON for operations: a text the young generation takes, garbage once parsed. */
const ITEMS_PER_CHUNK = 200;

/** In the worker. */
export function listsOf(prepared: PreparedDocument): PreparedLists {
  return {
    operations: toJsonChunks(prepared.operations),
    warnings: toJsonChunks(prepared.definition.warnings),
    skipped: toJsonChunks(prepared.definition.skipped),
  };
}

/** In the worker: the buffers the lists' bytes fill, to move with the reply. */
export function listBuffers(lists: PreparedLists): ArrayBuffer[] {
  return [lists.operations, lists.warnings, lists.skipped].map(({ utf8 }) => utf8.buffer as ArrayBuffer);
}

/** In the worker: the document to send along with its lists, without them. */
export function withoutLists(prepared: PreparedDocument): PreparedDocument {
  return { ...prepared, operations: [], definition: { ...prepared.definition, warnings: [], skipped: [] } };
}

/** On the main thread: the document with its lists back. */
export async function withLists(prepared: PreparedDocument, lists: PreparedLists): Promise<PreparedDocument> {
  const operations = await fromJsonChunks<ApiOperationRecord>(lists.operations);
  const warnings = await fromJsonChunks<DefinitionIssue>(lists.warnings);
  const skipped = await fromJsonChunks<SkippedOperation>(lists.skipped);
  return { ...prepared, operations, definition: { ...prepared.definition, warnings, skipped } };
}

export function toJsonChunks(items: readonly unknown[]): JsonChunks {
  const texts: string[] = [];
  const bounds = [1];
  for (let start = 0; start < items.length; start += ITEMS_PER_CHUNK) {
    const text = JSON.stringify(items.slice(start, start + ITEMS_PER_CHUNK)).slice(1, -1);
    texts.push(text);
    bounds.push(bounds.at(-1)! + Buffer.byteLength(text) + 1);
  }
  // A buffer of its own (Buffer.from would take a slice of the shared pool for a short list): it is moved.
  const json = `[${texts.join(',')}]`;
  const utf8 = new Uint8Array(Buffer.byteLength(json));
  Buffer.from(utf8.buffer).write(json);
  return { utf8, bounds };
}

/** The list, frozen (like operationRecords' own), with its whole JSON remembered as the bytes. */
export async function fromJsonChunks<T>({ utf8, bounds }: JsonChunks): Promise<T[]> {
  const bytes = Buffer.from(utf8.buffer, utf8.byteOffset, utf8.byteLength);
  const items: T[] = [];
  for (let chunk = 0; chunk + 1 < bounds.length; chunk++) {
    const text = bytes.toString('utf8', bounds[chunk], bounds[chunk + 1]! - 1);
    for (const item of JSON.parse(`[${text}]`) as T[]) items.push(item);
    await nextTurn();
  }
  Object.freeze(items);
  rememberJson(items, utf8);
  return items;
}
