import type { Worker } from 'node:worker_threads';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { startWorker } from '../../threads/worker-thread.js';
import type { Logger } from '../../logging/logger.js';
import type { Database } from '../../storage/database.js';
import type { NewMonitoringRecord } from '../monitoring-record.js';
import {
  ROWS_PER_WRITER_TRANSACTION,
  type FromWriterThread,
  type ToWriterThread,
} from './monitoring-write-protocol.js';
import {
  encodeRecords,
  insertEncodedRows,
  MONITORING_SEQUENCE,
  type EncodedRows,
} from './monitoring-writes.js';

/** The first id of each chunk of a batch, and how many rows each chunk has, in the batch's order. */
export interface WrittenChunks {
  firstIds: number[];
  rows: number[];
}

/**
 * API monitoring's writes on the SQLite engine, off the server's main thread. The records of a batch are encoded
 * here (flat arrays of values, what a structured clone copies fastest) and the writer thread
 * (monitoring-write-worker.ts), with a connection of its own to the same file, inserts them and merges their
 * roll-ups, a chunk of ROWS_PER_WRITER_TRANSACTION rows per transaction. WAL lets the main connection read
 * meanwhile; a chunk's promise resolves once its transaction committed, when the main connection sees it.
 *
 * One per database, closed with it (it closes the thread's connection to the file). If the thread dies, the
 * server log says so, and the chunks it had not acknowledged, and all later ones, are written on the main
 * connection as before (a chunk committed in the instant between the thread's commit and its reply would be
 * written twice).
 */
export class MonitoringWriteThread {
  static of(database: Database, logger: Logger | undefined): MonitoringWriteThread {
    let thread = perDatabase.get(database);
    if (!thread) {
      const created = new MonitoringWriteThread(database, logger);
      database.closeWith(() => created.close());
      perDatabase.set(database, (thread = created));
    }
    return thread;
  }

  #used = false;
  readonly #turn: SharedArrayBuffer | undefined;
  #closed = false;
  /** The thread that wrote the last chunk: 0 for the main thread (tests tell them apart by it). */
  lastWriterThreadId: number | undefined;

  private constructor(
    private readonly database: Database,
    private readonly logger: Logger | undefined,
  ) {
    // A read-only database has none; its store never writes.
    this.#turn = database.writeTurn?.buffer;
  }

  /** Writes the records with a usable time; resolves once all are committed. */
  async write(records: readonly NewMonitoringRecord[], recordedAt: number): Promise<WrittenChunks> {
    const written: Promise<number>[] = [];
    const rows: number[] = [];
    let next = 0;
    while (next < records.length) {
      const chunk = encodeRecords(records, next, ROWS_PER_WRITER_TRANSACTION, recordedAt);
      next = chunk.next;
      if (chunk.encoded.rows === 0) break;
      rows.push(chunk.encoded.rows);
      written.push(this.#writeChunk(chunk.encoded));
      // Encoding a chunk and handing it over is the main thread's share: one chunk per turn of the event loop.
      if (next < records.length) await nextTurn();
    }
    return { firstIds: await Promise.all(written), rows };
  }

  /** Closes the thread's connection to the file, once the chunks sent before are written. */
  async close(): Promise<void> {
    this.#closed = true;
    const thread = this.#used ? writerThread(this.logger) : undefined;
    if (!thread) return;
    await thread
      .send({ op: 'release', id: 0, file: this.database.location }, () => Promise.resolve(0))
      .catch(() => undefined);
  }

  async #writeChunk(rows: EncodedRows): Promise<number> {
    const turn = this.#turn;
    const thread = this.#closed || !turn ? undefined : writerThread(this.logger);
    if (!thread || !turn) return this.#writeHere(rows);
    this.#used = true;
    const reply = await thread.send({ op: 'write', id: 0, file: this.database.location, turn, ...rows }, () =>
      this.#writeHere(rows),
    );
    this.lastWriterThreadId = reply.threadId;
    return reply.firstId;
  }

  /** On the main connection: the way it was before the writer thread, and the fallback when it died. */
  async #writeHere(rows: EncodedRows): Promise<number> {
    const firstId = await this.database.transaction(
      async (trx) => {
        const first = await this.database.reserveIds(trx, MONITORING_SEQUENCE, rows.rows);
        await insertEncodedRows(this.database, trx, rows, first);
        return first;
      },
      { relaxed: true },
    );
    this.lastWriterThreadId = 0;
    return firstId;
  }
}

const perDatabase = new WeakMap<Database, MonitoringWriteThread>();

interface Sent {
  resolve: (reply: { firstId: number; threadId: number }) => void;
  reject: (error: unknown) => void;
  /** The same work on the main thread, should the thread die first. */
  fallback: () => Promise<number>;
}

/**
 * The worker thread, one per process, shared by the databases open in it: starting one costs tens of
 * milliseconds, several hundred where it loads TypeScript sources (tests open a database per property run).
 * Unreferenced while idle: it never holds a process up that has nothing else to do.
 */
class WriterThread {
  readonly #worker: Worker;
  readonly #sent = new Map<number, Sent>();
  #nextId = 1;
  #failed = false;

  constructor(private readonly logger: Logger | undefined) {
    this.#worker = spawnWriter();
    this.#worker.unref();
    this.#worker.on('message', (reply: FromWriterThread) => this.#settle(reply));
    this.#worker.on('error', (error) => this.#fail(error));
    this.#worker.on('exit', (code) => this.#fail(new Error(`the thread ended (exit code ${code})`)));
  }

  send(
    message: ToWriterThread,
    fallback: () => Promise<number>,
  ): Promise<{ firstId: number; threadId: number }> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#sent.set(id, { resolve, reject, fallback });
      // Referenced while work is in flight, so that a process waiting for it does not end first.
      if (this.#sent.size === 1) this.#worker.ref();
      this.#worker.postMessage({ ...message, id });
    });
  }

  #settle(reply: FromWriterThread): void {
    const sent = this.#sent.get(reply.id);
    if (!sent) return;
    this.#sent.delete(reply.id);
    if (this.#sent.size === 0) this.#worker.unref();
    if (reply.ok) sent.resolve(reply);
    else sent.reject(new Error(reply.message));
  }

  #fail(error: Error): void {
    if (this.#failed) return;
    this.#failed = true;
    died = true;
    if (shared === this) shared = undefined;
    void this.#worker.terminate();
    const unwritten = [...this.#sent.values()];
    this.#sent.clear();
    const message =
      'The API monitoring writer thread stopped; records are written on the main thread from now on';
    if (this.logger) this.logger.error({ err: error, unwrittenChunks: unwritten.length }, message);
    else process.emitWarning(`${message}: ${error.message}`);
    for (const sent of unwritten) {
      sent.fallback().then((firstId) => sent.resolve({ firstId, threadId: 0 }), sent.reject);
    }
  }
}

let shared: WriterThread | undefined;
/** Once a thread died, writes stay on the main thread (a thread that cannot start would fail again). */
let died = false;

function writerThread(logger: Logger | undefined): WriterThread | undefined {
  if (died) return undefined;
  shared ??= new WriterThread(logger);
  return shared;
}

// A variable, so that bundlers leave the worker's URL alone (electron.vite.config.ts and scripts/build-server.mjs
// build it as an entry of its own).
const WORKER_FILE = './monitoring-write-worker.js';

function spawnWriter(): Worker {
  if (import.meta.url.endsWith('.ts')) {
    // Running from TypeScript sources (tests, benchmarks): the worker loads them through tsx too.
    const entry = new URL('./monitoring-write-worker.ts', import.meta.url).href;
    const bootstrap = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`;
    return startWorker(bootstrap, { eval: true });
  }
  return startWorker(new URL(WORKER_FILE, import.meta.url));
}
