import type { EncodedRows } from './monitoring-writes.js';

/**
 * Rows per transaction of the writer thread. SQLite has one writer at a time: a write on the main connection
 * (audit, configuration) that finds the writer thread's transaction open waits for it, on the main thread (SQLite's
 * busy handler sleeps), so those transactions stay short: 250 rows shaped like the full route's, with their
 * roll-up merge and commit, hold the lock for about 2 ms (bench/monitoring-write-thread.ts).
 */
export const ROWS_PER_WRITER_TRANSACTION = 250;

/**
 * The writer thread waits this long for the main connection's write lock (an import of a large description holds
 * it for a while); then its chunk fails and the recorder counts its records as dropped.
 */
export const WRITER_BUSY_TIMEOUT_MS = 30_000;

/**
 * To the writer thread: a chunk of rows for the database file `file`, written in one transaction in its turn at the
 * write lock (`turn`, storage/write-turn.ts); the thread opens a connection to the file at its first chunk.
 * `release` closes that connection once the chunks before it are written.
 */
export type ToWriterThread =
  | ({ op: 'write'; id: number; file: string; turn: SharedArrayBuffer } & EncodedRows)
  | { op: 'release'; id: number; file: string };

/** The chunk's transaction committed (its ids `firstId` on) or the connection closed; or it failed. */
export type FromWriterThread =
  { id: number; ok: true; firstId: number; threadId: number } | { id: number; ok: false; message: string };
