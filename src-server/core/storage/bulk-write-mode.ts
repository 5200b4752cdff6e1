import type { Database } from './database.js';
import { SQLITE_BULK_CACHE_KIB, SQLITE_CACHE_KIB } from './sqlite-engine.js';

/** Bulk writers running per SQLite connection: the last one to finish gives the settings back. */
const writersOf = new WeakMap<object, number>();

/** SQLite's own default: the writer checkpoints after a commit that leaves this many pages in the WAL. */
const BULK_AUTOCHECKPOINT_PAGES = 1000;

/**
 * Runs a bulk write (an audit import or sync) on SQLite with two settings of SQLite's defaults back, then the
 * server's again; nothing on PostgreSQL.
 *
 * - The page cache at `SQLITE_BULK_CACHE_KIB` instead of `SQLITE_CACHE_KIB`: the server's small cache keeps its
 *   memory down for reads, but a chunk of an import touches more pages than it holds (the new rows, which the
 *   full-text index reads back, and the pages of six indexes); the import spent ~2 µs more CPU per entry with it,
 *   chained entries (larger rows) more than unchained ones.
 * - The writer checkpoints the WAL after its commits. The checkpoint worker (`sqlite-off-thread-sync.ts`) copies
 *   only the frames committed before it starts, and SQLite starts the WAL over only once every frame is copied: a
 *   writer that commits chunk after chunk stays ahead of it, and the WAL grew with the import (38 MB after 60,000
 *   entries: the trail twice on disk, each page read looked up through it).
 * - Temporary files in memory (`temp_store`): the bulk writes' multi-row statements (`BulkWrites`) each keep a
 *   statement journal, which SQLite spills to a file past 64 KiB; on disk, an import of 200,000 entries spent
 *   1.3 s more of system time writing them (2.7 s against 1.3). The import makes no other temporary files.
 */
export async function withBulkWriteMode<T>(database: Database, work: () => Promise<T>): Promise<T> {
  const handle = database.sqlite;
  if (!handle || handle.readonly) return await work();
  const writers = writersOf.get(handle) ?? 0;
  writersOf.set(handle, writers + 1);
  if (writers === 0) {
    handle.pragma(`cache_size = -${SQLITE_BULK_CACHE_KIB}`);
    handle.pragma(`wal_autocheckpoint = ${BULK_AUTOCHECKPOINT_PAGES}`);
    handle.pragma('temp_store = MEMORY');
  }
  try {
    return await work();
  } finally {
    const left = (writersOf.get(handle) ?? 1) - 1;
    if (left > 0) writersOf.set(handle, left);
    else {
      writersOf.delete(handle);
      if (handle.open) {
        handle.pragma(`cache_size = -${SQLITE_CACHE_KIB}`);
        handle.pragma('wal_autocheckpoint = 0');
        handle.pragma('temp_store = DEFAULT');
      }
    }
  }
}
