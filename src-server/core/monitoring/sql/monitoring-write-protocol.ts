import type { PackedRows } from './monitoring-row-packing.js';

/**
 * Rows of a batch the writer thread writes in one transaction at most. It commits earlier when the main thread
 * waits for its turn at the write lock (storage/write-turn.ts), checked every INSERT_SLICE rows, so a main-thread
 * write waits for a slice and a commit, not for the batch. The cap is for the main connection's writes outside
 * `Database.transaction` (single statements), which do not take the turn and wait in SQLite's busy handler:
 * they wait for at most this many rows, as long as a batch took on the main thread before the writer thread.
 */
export const MAX_ROWS_PER_WRITER_TRANSACTION = 1_000;

/**
 * The writer thread waits this long for the main connection's write lock (an import of a large description holds
 * it for a while); then its chunk fails and the recorder counts its records as dropped.
 */
export const WRITER_BUSY_TIMEOUT_MS = 30_000;

/**
 * To the writer thread: a batch of rows for the database file `file`, written in its turn at the write lock
 * (`turn`, storage/write-turn.ts); the thread opens a connection to the file at its first batch. `release` closes
 * that connection once the batches before it are written.
 */
export type ToWriterThread =
  | { op: 'write'; id: number; file: string; turn: SharedArrayBuffer; packed: PackedRows }
  | { op: 'release'; id: number; file: string };

/**
 * Per transaction committed: its rows' first id and how many (`done` once the batch is all written); or a
 * failure, after which the thread writes no more of the batch.
 */
export type FromWriterThread =
  | { id: number; ok: true; firstId: number; rows: number; done: boolean; threadId: number }
  | { id: number; ok: false; message: string };
