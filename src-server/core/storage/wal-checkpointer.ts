import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Database as SqliteHandle } from 'better-sqlite3';
import type { Logger } from '../logging/logger.js';
import { nativeBindingForRuntime } from './sqlite-engine.js';

/** How often the checkpointer copies the WAL's committed pages into the database file. */
export const CHECKPOINT_INTERVAL_MS = 1_000;
/**
 * The writing connection's own auto-checkpoint, kept as a backstop only (the checkpointer stopped or cannot keep
 * up): SQLite's default of 1,000 pages would still run it on the request thread several times a second under
 * gateway load.
 */
export const BACKSTOP_AUTOCHECKPOINT_PAGES = 16_384;
const DEFAULT_AUTOCHECKPOINT_PAGES = 1_000;

/**
 * SQLite's checkpoints, moved off the event loop. With the default `wal_autocheckpoint`, the commit that takes the
 * WAL past 1,000 pages copies them into the database file and fsyncs it on the committing connection, the only
 * one, whose thread serves the gateway: under load (API monitoring commits a batch every ~100 ms) that was a
 * 10–140 ms stall a few times a second (bench:proxy-tail). Here a worker thread with a connection of its own runs a
 * PASSIVE checkpoint every second: it never waits for the writer, and the writer never waits for it (WAL readers
 * and a checkpointer work beside one writer). Started with the first relaxed write (the gateway's monitoring):
 * an instance without gateway traffic keeps SQLite's default.
 */
export class WalCheckpointer {
  #worker: Worker | undefined;
  #stopped: Promise<void> | undefined;

  constructor(
    private readonly file: string,
    private readonly writer: SqliteHandle,
    private readonly logger: Logger,
    private readonly intervalMs = CHECKPOINT_INTERVAL_MS,
  ) {}

  /** Starts the worker once; later calls do nothing. */
  start(): void {
    if (this.#worker || this.#stopped) return;
    const worker = new Worker(WORKER_CODE, {
      eval: true,
      workerData: {
        file: this.file,
        driver: createRequire(import.meta.url).resolve('better-sqlite3'),
        nativeBinding: nativeBindingForRuntime(),
        intervalMs: this.intervalMs,
      },
    });
    this.#worker = worker;
    worker.unref();
    worker.on('message', (message: { ready?: true; error?: string }) => {
      if (message.ready && this.writer.open && !this.#stopped)
        this.writer.pragma(`wal_autocheckpoint = ${BACKSTOP_AUTOCHECKPOINT_PAGES}`);
      // The writer checkpoints by itself again; the data is safe either way, only the latency suffers.
      if (message.error) {
        this.logger.warn({ error: message.error }, 'the background WAL checkpoint failed');
        this.#restoreAutoCheckpoint();
      }
    });
    worker.on('error', (error) => {
      this.logger.warn({ err: error }, 'the background WAL checkpointer stopped');
      this.#restoreAutoCheckpoint();
    });
  }

  /** Stops the worker and hands checkpoints back to the writer (before it closes: its close checkpoints). */
  stop(): Promise<void> {
    this.#stopped ??= (async () => {
      const worker = this.#worker;
      if (!worker) return;
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      worker.postMessage('stop');
      await exited;
      this.#restoreAutoCheckpoint();
    })();
    return this.#stopped;
  }

  #restoreAutoCheckpoint(): void {
    if (this.writer.open) this.writer.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
  }
}

const WORKER_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
let db;
let timer;
try {
  db = new Database(workerData.file, { fileMustExist: true, nativeBinding: workerData.nativeBinding });
  db.pragma('synchronous = FULL');
  parentPort.postMessage({ ready: true });
  let reported = false;
  timer = setInterval(() => {
    try {
      db.pragma('wal_checkpoint(PASSIVE)');
    } catch (error) {
      if (!reported) parentPort.postMessage({ error: String(error && error.message ? error.message : error) });
      reported = true;
    }
  }, workerData.intervalMs);
} catch (error) {
  parentPort.postMessage({ error: String(error && error.message ? error.message : error) });
}
parentPort.on('message', () => {
  clearInterval(timer);
  if (db) db.close();
  parentPort.close();
});
`;
