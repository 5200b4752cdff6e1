import type { EncodedRows } from './monitoring-writes.js';

/**
 * Rows per transaction of the writer thread. SQLite has one writer at a time: a write of the main connection
 * (audit, configuration) waits for the chunk being written (asynchronously, storage/write-turn.ts), so chunks stay
 * short. Measured with 60,000 records shaped like the full route's written back to back
 * (bench/monitoring-write-thread.ts, load 3.5): a one-row durable main-thread transaction took 3.6-4.0 ms at the
 * median, 9.8-10.8 ms at p99 and 15.7 ms at most, its own WAL fdatasync included (before the thread: 5.9-6.9 ms,
 * 28-42 ms, 42 ms).
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
