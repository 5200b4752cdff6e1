import type { Database } from './database.js';
import { SQLITE_BULK_CACHE_KIB, SQLITE_CACHE_KIB } from './sqlite-engine.js';

/** Bulk writers running per SQLite connection: the last one to finish gives the cache back. */
const writersOf = new WeakMap<object, number>();

/**
 * Runs a bulk write (an audit import or sync) with SQLite's page cache at `SQLITE_BULK_CACHE_KIB`, then back at
 * `SQLITE_CACHE_KIB` (the pages above it are freed). The server's small cache keeps its memory down for reads, but
 * a chunk of an import touches more pages than it holds (the new rows, which the full-text index reads back, and
 * the pages of six indexes): the import spent ~2 µs more CPU per entry with it, and chained entries, whose rows
 * are larger, more than unchained ones. Nothing on PostgreSQL.
 */
export async function withBulkWriteCache<T>(database: Database, work: () => Promise<T>): Promise<T> {
  const handle = database.sqlite;
  if (!handle || handle.readonly) return await work();
  const writers = writersOf.get(handle) ?? 0;
  writersOf.set(handle, writers + 1);
  if (writers === 0) handle.pragma(`cache_size = -${SQLITE_BULK_CACHE_KIB}`);
  try {
    return await work();
  } finally {
    const left = (writersOf.get(handle) ?? 1) - 1;
    if (left > 0) writersOf.set(handle, left);
    else {
      writersOf.delete(handle);
      if (handle.open) handle.pragma(`cache_size = -${SQLITE_CACHE_KIB}`);
    }
  }
}
