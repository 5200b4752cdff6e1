import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Database } from '../../storage/database.js';
import type { ImportProgress, ImportResult, NewAuditEntry } from '../audit-entry.js';
import { normalizeEntry } from '../normalize-entry.js';
import { contentKey } from './audit-rows.js';
import { insertEntries, type PreparedEntry } from './audit-writes.js';

const CHUNK_ENTRIES = 5_000;
const PROGRESS_EVERY = 10_000;
/** Keys of one IN list: far below either engine's limit on parameters. */
const LOOKUP_KEYS = 5_000;

/**
 * Bulk import in chunks, one transaction (one fsync) each. An entry whose content (digest and time) is already
 * stored, or came earlier in the same chunk, is a duplicate. The first invalid entry stops the import after
 * everything before it is written, so the outcome does not depend on chunking.
 */
export async function importAuditEntries(
  database: Database,
  entries: AsyncIterable<NewAuditEntry | readonly NewAuditEntry[]> | Iterable<NewAuditEntry>,
  onProgress: ((progress: ImportProgress) => void) | undefined,
  now: () => number,
): Promise<ImportResult> {
  const progress: ImportProgress = { read: 0, added: 0, duplicates: 0 };
  let chunk: PreparedEntry[] = [];
  const flush = async (): Promise<void> => {
    if (chunk.length === 0) return;
    const written = chunk;
    chunk = [];
    progress.added += await writeChunk(database, written, now());
    progress.duplicates = progress.read - progress.added - chunk.length;
  };
  const accept = async (input: NewAuditEntry): Promise<void> => {
    let normalized;
    try {
      normalized = normalizeEntry(input);
    } catch (error) {
      await flush();
      throw new Error(`Import stopped at entry ${progress.read + 1}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    progress.read++;
    chunk.push({ ...normalized, hash: contentKey(normalized.entry, normalized.timeMs) });
    if (chunk.length >= CHUNK_ENTRIES) {
      await flush();
      await yieldToEventLoop();
    }
    if (onProgress && progress.read % PROGRESS_EVERY === 0) {
      onProgress({ ...progress, duplicates: progress.read - progress.added - chunk.length });
    }
  };
  if (Symbol.asyncIterator in entries) {
    for await (const item of entries as AsyncIterable<NewAuditEntry | readonly NewAuditEntry[]>) {
      if (Array.isArray(item)) for (const entry of item as readonly NewAuditEntry[]) await accept(entry);
      else await accept(item as NewAuditEntry);
    }
  } else {
    for (const entry of entries as Iterable<NewAuditEntry>) await accept(entry);
  }
  await flush();
  const result = { read: progress.read, added: progress.added, duplicates: progress.read - progress.added };
  onProgress?.({ ...result });
  return result;
}

async function writeChunk(database: Database, chunk: PreparedEntry[], recordedAt: number): Promise<number> {
  return database.transaction(async (trx) => {
    const stored = new Set<string>();
    const times = [...new Set(chunk.map((entry) => entry.timeMs))];
    for (let start = 0; start < times.length; start += LOOKUP_KEYS) {
      const rows = await trx
        .selectFrom('audit_entries')
        .select(['time_ms', 'content_hash'])
        .where('time_ms', 'in', times.slice(start, start + LOOKUP_KEYS))
        .execute();
      for (const row of rows) stored.add(`${Number(row.time_ms)}:${row.content_hash}`);
    }
    const fresh: PreparedEntry[] = [];
    for (const entry of chunk) {
      const key = `${entry.timeMs}:${entry.hash}`;
      if (stored.has(key)) continue;
      stored.add(key);
      fresh.push(entry);
    }
    await insertEntries(database, trx, fresh, recordedAt);
    return fresh.length;
  });
}
