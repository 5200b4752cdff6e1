/**
 * The monitoring writer thread's entry: writes API monitoring's records (and merges their roll-ups) on SQLite
 * connections of its own, one per database file, so that neither the inserts nor the commits run on the server's
 * main thread, which serves the gateway. Started by monitoring-write-thread.ts, one per process.
 */
import { parentPort, threadId } from 'node:worker_threads';
import type { Database as SqliteHandle } from 'better-sqlite3';
import { Kysely } from 'kysely';
import { BulkWrites } from '../../storage/bulk-writes.js';
import type { GatehouseSchema } from '../../storage/schema.js';
import { reserveIds } from '../../storage/sequences.js';
import { openSqliteEngine } from '../../storage/sqlite-engine.js';
import { translatingDialect } from '../../storage/translating-dialect.js';
import { WriterTurn } from '../../storage/write-turn.js';
import {
  MAX_ROWS_PER_WRITER_TRANSACTION,
  WRITER_BUSY_TIMEOUT_MS,
  type FromWriterThread,
  type ToWriterThread,
} from './monitoring-write-protocol.js';
import type { PackedRows } from './monitoring-row-packing.js';
import { insertPackedRows, type RowWriter } from './monitoring-writes.js';

const port = parentPort;
if (!port) throw new Error('monitoring-write-worker.ts runs as a worker thread only');

interface Connection {
  db: Kysely<GatehouseSchema>;
  writer: RowWriter;
  handle: SqliteHandle;
  /** Rows committed since the thread's last checkpoint of the file. */
  rowsSinceCheckpoint: number;
}

const connections = new Map<string, Connection>();

/**
 * The thread checkpoints the WAL after this many rows (about SQLite's own 1,000 pages of WAL), as an import does
 * (storage/bulk-write-mode.ts): the checkpoint worker copies only the frames committed before it starts and SQLite
 * starts the WAL over only once every frame is copied, so a writer that commits batch after batch stayed ahead of
 * it. bench:monitoring's 1M appends grew the WAL past 1.2 GB (every page read looked up through it) and slowed to
 * 2-5k records/s. Outside its turn at the write lock: a checkpoint does not hold the main connection's writes up,
 * and with SQLite's auto-checkpoint (inside the commit) a main-thread write waited for it.
 */
const CHECKPOINT_EVERY_ROWS = 10_000;

/** PASSIVE: copies what no reader still needs and waits for nobody; the next writer starts the WAL over. */
function checkpointNowAndThen(connection: Connection, committedRows: number): void {
  connection.rowsSinceCheckpoint += committedRows;
  if (connection.rowsSinceCheckpoint < CHECKPOINT_EVERY_ROWS) return;
  connection.rowsSinceCheckpoint = 0;
  try {
    connection.handle.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Tried again after the next rows; the WAL only grows meanwhile (and the checkpoint worker copies it too).
  }
}

async function connect(file: string): Promise<Connection> {
  const engine = await openSqliteEngine(file);
  engine.handle.pragma(`busy_timeout = ${WRITER_BUSY_TIMEOUT_MS}`);
  // As the main connection's relaxed transactions: in the WAL at commit, on the disk with the next fsync of it
  // (the main connection's next durable commit, or a checkpoint's).
  engine.handle.pragma('synchronous = NORMAL');
  // The thread checkpoints the WAL itself (`checkpointNowAndThen`); its commits do not.
  engine.handle.pragma('wal_autocheckpoint = 0');
  // Each multi-row INSERT keeps a statement journal (the pages it changes, so that it alone can be undone): past
  // 64 KiB SQLite spills it to a temporary file, and every page the 50 rows of a statement touched cost two
  // pwrite calls, 0.8 per record (strace). In memory it stays at a few pages per statement; this connection makes
  // no other temporary files (no sorts, no temporary tables).
  engine.handle.pragma('temp_store = MEMORY');
  const db = new Kysely<GatehouseSchema>({ dialect: translatingDialect(engine.dialect, engine.translate) });
  const bulk = new BulkWrites(db, engine.handle, engine.translate);
  const writer: RowWriter = {
    kind: 'sqlite',
    insertValues: (trx, table, columns, values, rows, shared) =>
      bulk.insertValues(trx, table, columns, values, rows, shared),
    reserveIds: (trx, sequence, count) => reserveIds(bulk, trx, sequence, count),
    runCompiled: (trx, key, build, parameters) => bulk.runCompiled(trx, key, build, parameters),
    upsert: (trx, table, keyColumns, rows) => bulk.upsert(trx, table, keyColumns, rows),
    // SQLite has one writer at a time already.
    lockExclusively: () => Promise.resolve(),
  };
  return { db, writer, handle: engine.handle, rowsSinceCheckpoint: 0 };
}

const turns = new WeakMap<SharedArrayBuffer, WriterTurn>();

let queue = Promise.resolve();
port.on('message', (message: ToWriterThread) => {
  queue = queue.then(async () => {
    try {
      if (message.op === 'release') {
        await release(message.file);
        reply({ id: message.id, ok: true, firstId: 0, rows: 0, done: true, threadId });
      } else {
        await write(message.id, message.file, message.turn, message.packed);
      }
    } catch (error) {
      reply({ id: message.id, ok: false, message: error instanceof Error ? error.message : String(error) });
    }
  });
});

function reply(message: FromWriterThread): void {
  port!.postMessage(message);
}

async function release(file: string): Promise<void> {
  const connection = connections.get(file);
  connections.delete(file);
  await connection?.db.destroy();
}

/** Writes the batch in as few transactions as the main thread's writes allow; replies after each commit. */
async function write(id: number, file: string, buffer: SharedArrayBuffer, packed: PackedRows): Promise<void> {
  let connection = connections.get(file);
  if (!connection) {
    connection = await connect(file);
    connections.set(file, connection);
  }
  const { db, writer } = connection;
  const turn = turns.get(buffer) ?? new WriterTurn(buffer);
  turns.set(buffer, turn);
  const stopEarly = (written: number) => written >= MAX_ROWS_PER_WRITER_TRANSACTION || turn.mainThreadWaits();
  let from = 0;
  while (from < packed.rows) {
    turn.acquireBlocking();
    let committed: { firstId: number; rows: number };
    try {
      // `begin immediate` (the engine's dialect): the write lock from the start.
      committed = await db
        .transaction()
        .execute((trx) => insertPackedRows(writer, trx, packed, from, { stopEarly }));
    } finally {
      turn.release();
    }
    from += committed.rows;
    reply({ id, ok: true, ...committed, done: from >= packed.rows, threadId });
    checkpointNowAndThen(connection, committed.rows);
  }
}
