import { open, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../threads/worker-thread.js';
import { StorageUnavailableError } from './storage-errors.js';

/**
 * A SQLite commit reaches the disk off the main thread. With `synchronous=FULL` SQLite fsyncs its WAL inside
 * COMMIT, and once the WAL passes 1,000 pages the committing connection also copies it into the database file
 * (the auto-checkpoint, two more fsyncs): all on the server's main thread, where importing Microsoft Graph's
 * description (a 4 MB configuration row) held the event loop, and the gateway, for 50 to 400 ms on a busy disk.
 *
 * So transactions commit with `synchronous=NORMAL` (the WAL written, not yet flushed; SQLite orders its writes so
 * that the file stays sound either way) and then wait here for an fdatasync of the WAL on libuv's thread pool: a
 * transaction is on disk when it resolves, as before. The main connection's auto-checkpoint is off; a worker
 * thread with a connection of its own checkpoints once the WAL has grown past the same 1,000 pages.
 */
export class SqliteOffThreadSync {
  #checkpointer: Worker | undefined;
  #checkpointing = false;
  #closed = false;

  /** Writes that never call `sync` (relaxed transactions, single statements) grow the WAL too. */
  readonly #watch: NodeJS.Timeout;

  constructor(
    private readonly file: string,
    private readonly nativeBinding: string | undefined,
  ) {
    this.#watch = setInterval(() => void this.#checkpointIfLarge(), WATCH_INTERVAL_MS);
    this.#watch.unref();
  }

  /** Flushes what the connection committed so far to the disk; may start a checkpoint. */
  async sync(): Promise<void> {
    let handle;
    try {
      handle = await open(`${this.file}-wal`, 'r+');
    } catch (error) {
      // No WAL: nothing was written since the last connection closed.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw unavailable(error);
    }
    try {
      await handle.datasync();
      if ((await handle.stat()).size > CHECKPOINT_AFTER_BYTES) this.#checkpoint();
    } catch (error) {
      throw unavailable(error);
    } finally {
      await handle.close();
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#watch);
    const worker = this.#checkpointer;
    this.#checkpointer = undefined;
    if (!worker) return;
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    // Unreferenced while it runs; awaited here, it must hold the process up until it exits, or a stopping server
    // whose last handle this is would end before its close does (and before it says "Stopped.").
    worker.ref();
    worker.postMessage('close');
    await exited;
  }

  async #checkpointIfLarge(): Promise<void> {
    const size = await stat(`${this.file}-wal`).then(
      (stats) => stats.size,
      () => 0,
    );
    if (size > CHECKPOINT_AFTER_BYTES) this.#checkpoint();
  }

  #checkpoint(): void {
    if (this.#checkpointing || this.#closed) return;
    this.#checkpointing = true;
    this.#worker().postMessage('checkpoint');
  }

  #worker(): Worker {
    if (this.#checkpointer) return this.#checkpointer;
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const worker = startWorker(CHECKPOINTER, {
      eval: true,
      workerData: { file: this.file, driver, nativeBinding: this.nativeBinding },
    });
    worker.unref();
    worker.on('message', () => (this.#checkpointing = false));
    // A failed checkpoint is retried by the next commit's; the WAL only grows meanwhile.
    worker.on('error', () => {
      this.#checkpointing = false;
      if (this.#checkpointer === worker) this.#checkpointer = undefined;
    });
    this.#checkpointer = worker;
    return worker;
  }
}

const WATCH_INTERVAL_MS = 1_000;

/** SQLite's own auto-checkpoint threshold: 1,000 pages of 4 KiB. */
const CHECKPOINT_AFTER_BYTES = 1000 * 4096;

/**
 * PASSIVE: copies what no reader still needs and waits for nobody; the next writer then starts the WAL over from
 * its beginning. The checkpoint fsyncs the WAL and the database file itself (synchronous=FULL on this connection).
 */
const CHECKPOINTER = `
  const { parentPort, workerData } = require('node:worker_threads');
  const Database = require(workerData.driver);
  const db = new Database(workerData.file, { fileMustExist: true, nativeBinding: workerData.nativeBinding });
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = FULL');
  parentPort.on('message', (message) => {
    if (message === 'close') {
      db.close();
      parentPort.close();
      return;
    }
    try {
      db.pragma('wal_checkpoint(PASSIVE)');
    } finally {
      parentPort.postMessage('done');
    }
  });`;

function unavailable(error: unknown): StorageUnavailableError {
  return new StorageUnavailableError(
    'The database cannot be written right now (disk full or not writable); the server log says why.',
    { cause: error },
  );
}
