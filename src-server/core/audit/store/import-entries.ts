import { setImmediate as setImmediatePromise } from 'node:timers/promises';
import type { ImportProgress, ImportResult, NewAuditEntry } from '../audit-entry.js';
import type { FrameBatch, RecordLocation, SegmentLog } from '../../storage/index.js';
import type { AuditIndex, PendingRow } from './audit-index.js';
import { contentHash, type ContentHash } from './content-hash.js';
import { normalizeEntry, withId } from './normalize-entry.js';
import { entryRecordPrefix } from './record-codec.js';
import { CATEGORY_CODES } from './row-columns.js';

const CHUNK_ENTRIES = 10_000;
const CHUNK_BYTES = 8 * 1024 * 1024;
/** Chunks written while the next one is being encoded: keeps the disk and the CPU busy at the same time. */
const CHUNKS_IN_FLIGHT = 2;
/**
 * A `for await` over a synchronous source never reaches the event loop's I/O phase, so the writes of
 * earlier chunks could not progress while entries are encoded (and the server could not answer). Yield
 * to the event loop this often.
 */
const YIELD_EVERY_ENTRIES = 1_000;

interface Chunk {
  batch: FrameBatch;
  rows: PendingRow[];
  hashKeys: number[];
}

/**
 * Bulk import: entries are normalized, checked against the content hashes already stored (and those of
 * this import still being written), given ids and written in chunks with one fsync each. New rows join the
 * lists once their chunk is durable, all at once, so a query never sees half a chunk.
 */
export async function importEntries(
  log: SegmentLog,
  index: AuditIndex,
  entries: AsyncIterable<NewAuditEntry | readonly NewAuditEntry[]> | Iterable<NewAuditEntry>,
  onProgress: ((progress: ImportProgress) => void) | undefined,
): Promise<ImportResult> {
  const progress: ImportProgress = { read: 0, added: 0, duplicates: 0 };
  const inFlightHashes = new Set<number>();
  const inFlight: Promise<void>[] = [];
  let failure: { error: unknown } | undefined;
  const prefix = entryRecordPrefix({ hi: 0, lo: 0 });
  const emptyChunk = (): Chunk => ({ batch: log.createBatch(), rows: [], hashKeys: [] });
  let chunk = emptyChunk();

  const submit = async (): Promise<void> => {
    if (chunk.rows.length === 0) return;
    const submitted = chunk;
    chunk = emptyChunk();
    if (inFlight.length >= CHUNKS_IN_FLIGHT) await inFlight.shift();
    // Failures are collected rather than left on a promise nobody awaits yet.
    inFlight.push(
      writeChunk(log, index, submitted, inFlightHashes).catch((error: unknown) => {
        failure ??= { error };
      }),
    );
    if (failure) throw failure.error;
  };

  /** Takes one entry; true when the chunk is full and must be submitted. */
  const accept = (input: NewAuditEntry): boolean => {
    progress.read++;
    let normalized;
    try {
      normalized = normalizeEntry(input);
    } catch (error) {
      throw new Error(`Import stopped at entry ${progress.read}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    const hash = contentHash(normalized.entry, normalized.timeMs);
    const hashKey = inFlightKey(hash);
    if (onProgress && progress.read % CHUNK_ENTRIES === 0) onProgress({ ...progress });
    if (inFlightHashes.has(hashKey) || isStored(index, hash, normalized.entry, normalized.timeMs)) {
      progress.duplicates++;
      return false;
    }
    const entry = withId(index.allocateId(), normalized.entry);
    chunk.batch.addRecord(entryRecordPrefix(hash, prefix), JSON.stringify(entry));
    chunk.rows.push(index.pendingRow(entry, normalized.timeMs, hash));
    chunk.hashKeys.push(hashKey);
    inFlightHashes.add(hashKey);
    progress.added++;
    return chunk.rows.length >= CHUNK_ENTRIES || chunk.batch.byteLength >= CHUNK_BYTES;
  };

  try {
    if (isAsyncIterable(entries)) {
      for await (const input of entries) {
        for (const entry of Array.isArray(input)
          ? (input as readonly NewAuditEntry[])
          : [input as NewAuditEntry]) {
          if (accept(entry)) await submit();
          if (progress.read % YIELD_EVERY_ENTRIES === 0) await setImmediatePromise();
        }
      }
    } else {
      // A plain loop: `for await` over a synchronous source costs a promise per entry.
      for (const input of entries) {
        if (accept(input)) await submit();
        if (progress.read % YIELD_EVERY_ENTRIES === 0) await setImmediatePromise();
      }
    }
  } catch (error) {
    // Everything accepted before the failure is written, so the outcome does not depend on chunking.
    await submit();
    await Promise.all(inFlight);
    throw error;
  }
  await submit();
  await Promise.all(inFlight);
  if (failure) throw failure.error;
  onProgress?.({ ...progress });
  return { ...progress };
}

async function writeChunk(
  log: SegmentLog,
  index: AuditIndex,
  chunk: Chunk,
  inFlightHashes: Set<number>,
): Promise<void> {
  const added: number[] = [];
  const last = chunk.rows.length - 1;
  await log.appendBatch(chunk.batch, (location: RecordLocation, position: number) => {
    added.push(index.addRow(chunk.rows[position]!, location, false));
    if (position === last) {
      index.lists.insertMany(added);
      for (const key of chunk.hashKeys) inFlightHashes.delete(key);
    }
  });
}

/** 53 of the 64 hash bits, as a number (a Set of numbers is much cheaper than one of strings). */
function inFlightKey(hash: ContentHash): number {
  return hash.hi * 0x200000 + (hash.lo >>> 11);
}

function isAsyncIterable<A, S>(source: AsyncIterable<A> | Iterable<S>): source is AsyncIterable<A> {
  return typeof (source as AsyncIterable<A>)[Symbol.asyncIterator] === 'function';
}

/** Same 64-bit hash and the same indexed fields: treated as the same entry. */
function isStored(index: AuditIndex, hash: ContentHash, entry: NewAuditEntry, timeMs: number): boolean {
  const action = index.actions.find(entry.actionName);
  const user = index.users.find(entry.userName);
  if (action === undefined || user === undefined) return false;
  return index.contentTable().findLive(hash, timeMs, action, user, CATEGORY_CODES[entry.category]) >= 0;
}
