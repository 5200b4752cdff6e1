import type { Worker } from 'node:worker_threads';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { startWorker } from '../../threads/worker-thread.js';
import type { Logger } from '../../logging/logger.js';
import type { Database } from '../../storage/database.js';
import type { WriteTurn } from '../../storage/write-turn.js';
import type { NewMonitoringRecord } from '../monitoring-record.js';
import type { FromWriterThread, ToWriterThread } from './monitoring-write-protocol.js';
import { RowPacker, type PackedRows } from './monitoring-row-packing.js';
import { insertPackedRows } from './monitoring-writes.js';

/** The first id of each chunk of a batch (each written in one transaction), and its rows, in the batch's order. */
export interface WrittenChunks {
  firstIds: number[];
  rows: number[];
}

/** Records encoded per turn of the main thread's event loop. */
const ENCODE_SLICE = 250;

/**
 * API monitoring's writes on the SQLite engine, off the server's main thread. The records of a batch are encoded
 * here, packed (monitoring-row-packing.ts) and posted in one message; the writer thread
 * (monitoring-write-worker.ts), with a connection of its own to the same file, inserts them and merges their
 * roll-ups in transactions of up to MAX_ROWS_PER_WRITER_TRANSACTION rows, committed earlier when the main thread
 * waits for the write lock. WAL lets the main connection read meanwhile; the batch's promise resolves once all its
 * rows are committed, when the main connection sees them.
 *
 * No main-thread transaction may wait for a monitoring write: it holds the turn the thread needs (none does; the
 * recorder writes from a loop of its own, outside any transaction).
 *
 * One per database, closed with it (it closes the thread's connection to the file). If the thread dies, the
 * server log says so, and the rows it had not acknowledged, and all later ones, are written on the main
 * connection as before (a transaction committed in the instant between the thread's commit and its reply would be
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
  readonly #turn: WriteTurn | undefined;
  #closed = false;
  /** The thread that wrote the last chunk: 0 for the main thread (tests tell them apart by it). */
  lastWriterThreadId: number | undefined;

  private constructor(
    private readonly database: Database,
    private readonly logger: Logger | undefined,
  ) {
    // A read-only database has none; its store never writes.
    this.#turn = database.writeTurn;
  }

  /** Writes the records with a usable time; resolves once all are committed. */
  async write(records: readonly NewMonitoringRecord[], recordedAt: number): Promise<WrittenChunks> {
    const packer = new RowPacker(records.length, recordedAt);
    for (let index = 0; index < records.length; index++) {
      packer.add(records[index]!);
      // Encoding is the main thread's share: a slice per turn of the event loop.
      if ((index + 1) % ENCODE_SLICE === 0 && index + 1 < records.length) await nextTurn();
    }
    if (packer.rows === 0) return { firstIds: [], rows: [] };
    const packed = packer.finish();
    const turn = this.#turn;
    const thread = this.#closed || !turn ? undefined : writerThread(this.logger);
    if (!thread || !turn) return this.#writeHere(packed, 0);
    this.#used = true;
    const written = await thread.write(this.database.location, turn, packed, (from) =>
      this.#writeHere(packed, from),
    );
    this.lastWriterThreadId = written.threadId;
    return written;
  }

  /** Closes the thread's connection to the file, once the batches sent before are written. */
  async close(): Promise<void> {
    this.#closed = true;
    const thread = this.#used ? writerThread(this.logger) : undefined;
    await thread?.release(this.database.location).catch(() => undefined);
  }

  /**
   * On the main connection, from row `from` on: the way it was before the writer thread (one transaction, the
   * event loop free between slices), and the fallback when it died.
   */
  async #writeHere(packed: PackedRows, from: number): Promise<WrittenChunks> {
    const { firstId, rows } = await this.database.transaction(
      (trx) => insertPackedRows(this.database, trx, packed, from, { betweenSlices: () => nextTurn() }),
      { relaxed: true },
    );
    this.lastWriterThreadId = 0;
    return { firstIds: [firstId], rows: [rows] };
  }
}

const perDatabase = new WeakMap<Database, MonitoringWriteThread>();

interface Sent {
  /** The chunks the thread acknowledged so far. */
  written: WrittenChunks & { threadId: number };
  resolve: (written: WrittenChunks & { threadId: number }) => void;
  reject: (error: unknown) => void;
  /** The rest of the work on the main thread, should the thread die first. */
  fallback: (from: number) => Promise<WrittenChunks>;
}

/**
 * The worker thread, one per process, shared by the databases open in it: starting one costs tens of
 * milliseconds, several hundred where it loads TypeScript sources (tests open a database per property run).
 * Unreferenced while idle: it never holds a process up that has nothing else to do.
 */
class WriterThread {
  readonly #worker: Worker;
  readonly #sent = new Map<number, Sent>();
  /** The turns of the databases it writes to: one it holds when it ends is given back. */
  readonly #turns = new Set<WriteTurn>();
  #nextId = 1;
  #failed = false;

  constructor(private readonly logger: Logger | undefined) {
    this.#worker = spawnWriter();
    this.#worker.unref();
    this.#worker.on('message', (reply: FromWriterThread) => this.#settle(reply));
    this.#worker.on('error', (error) => this.#fail(error));
    this.#worker.on('exit', (code) => {
      this.#fail(new Error(`the thread ended (exit code ${code})`));
      this.#fallBack();
    });
  }

  write(
    file: string,
    turn: WriteTurn,
    packed: PackedRows,
    fallback: (from: number) => Promise<WrittenChunks>,
  ): Promise<WrittenChunks & { threadId: number }> {
    this.#turns.add(turn);
    return this.#send({ op: 'write', id: 0, file, turn: turn.buffer, packed }, fallback);
  }

  async release(file: string): Promise<void> {
    await this.#send({ op: 'release', id: 0, file }, () => Promise.resolve({ firstIds: [], rows: [] }));
  }

  /** Ends the thread as a crash would: what it had not acknowledged is written on the main thread. */
  async end(): Promise<void> {
    await this.#worker.terminate();
  }

  #send(
    message: ToWriterThread,
    fallback: (from: number) => Promise<WrittenChunks>,
  ): Promise<WrittenChunks & { threadId: number }> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const written = { firstIds: [], rows: [], threadId: 0 };
      this.#sent.set(id, { written, resolve, reject, fallback });
      // Referenced while work is in flight, so that a process waiting for it does not end first.
      if (this.#sent.size === 1) this.#worker.ref();
      this.#worker.postMessage({ ...message, id });
    });
  }

  #settle(reply: FromWriterThread): void {
    const sent = this.#sent.get(reply.id);
    if (!sent) return;
    if (reply.ok) {
      if (reply.rows > 0) {
        sent.written.firstIds.push(reply.firstId);
        sent.written.rows.push(reply.rows);
      }
      sent.written.threadId = reply.threadId;
      if (!reply.done) return;
    }
    this.#sent.delete(reply.id);
    if (this.#sent.size === 0) this.#worker.unref();
    if (reply.ok) sent.resolve(sent.written);
    else sent.reject(new Error(reply.message));
  }

  /** On an error or the end of the thread: says so once; no more work goes to it. */
  #fail(error: Error): void {
    if (this.#failed) return;
    this.#failed = true;
    died = true;
    if (shared === this) shared = undefined;
    void this.#worker.terminate();
    const message =
      'The API monitoring writer thread stopped; records are written on the main thread from now on';
    if (this.logger) this.logger.error({ err: error, unwrittenBatches: this.#sent.size }, message);
    else process.emitWarning(`${message}: ${error.message}`);
  }

  /**
   * Once the thread has ended (its connections closed with it, which rolled back a transaction in progress and
   * released SQLite's lock): its turn is given back, and what it had not acknowledged is written here.
   */
  #fallBack(): void {
    for (const turn of this.#turns) turn.releaseFromEndedWriter();
    const unwritten = [...this.#sent.values()];
    this.#sent.clear();
    for (const sent of unwritten) {
      const from = sent.written.rows.reduce((sum, rows) => sum + rows, 0);
      sent.fallback(from).then(
        (rest) =>
          sent.resolve({
            firstIds: [...sent.written.firstIds, ...rest.firstIds],
            rows: [...sent.written.rows, ...rest.rows],
            threadId: 0,
          }),
        sent.reject,
      );
    }
  }
}

/**
 * Ends the process's writer thread as a crash would (what it had not acknowledged is written on the main thread,
 * and so is everything after): for tests of that fallback.
 */
export async function endWriterThread(): Promise<void> {
  await shared?.end();
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
