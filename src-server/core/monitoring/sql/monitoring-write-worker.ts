/**
 * The monitoring writer thread's entry: writes API monitoring's records (and merges their roll-ups) on SQLite
 * connections of its own, one per database file, so that neither the inserts nor the commits run on the server's
 * main thread, which serves the gateway. Started by monitoring-write-thread.ts, one per process.
 */
import { parentPort, threadId } from 'node:worker_threads';
import { Kysely } from 'kysely';
import { BulkWrites } from '../../storage/bulk-writes.js';
import type { GatehouseSchema } from '../../storage/schema.js';
import { reserveIds } from '../../storage/sequences.js';
import { openSqliteEngine } from '../../storage/sqlite-engine.js';
import { translatingDialect } from '../../storage/translating-dialect.js';
import { acquireTurnBlocking } from '../../storage/write-turn.js';
import {
  WRITER_BUSY_TIMEOUT_MS,
  type FromWriterThread,
  type ToWriterThread,
} from './monitoring-write-protocol.js';
import { insertEncodedRows, MONITORING_SEQUENCE, type RowWriter } from './monitoring-writes.js';

const port = parentPort;
if (!port) throw new Error('monitoring-write-worker.ts runs as a worker thread only');

interface Connection {
  db: Kysely<GatehouseSchema>;
  writer: RowWriter;
}

const connections = new Map<string, Connection>();

async function connect(file: string): Promise<Connection> {
  const engine = await openSqliteEngine(file);
  engine.handle.pragma(`busy_timeout = ${WRITER_BUSY_TIMEOUT_MS}`);
  // As the main connection's relaxed transactions: in the WAL at commit, on the disk with the next fsync of it
  // (the main connection's next durable commit, or the checkpointer's), which also copies the WAL into the file.
  engine.handle.pragma('synchronous = NORMAL');
  engine.handle.pragma('wal_autocheckpoint = 0');
  const db = new Kysely<GatehouseSchema>({ dialect: translatingDialect(engine.dialect, engine.translate) });
  const bulk = new BulkWrites(db, engine.handle, engine.translate);
  const writer: RowWriter = {
    insertValues: (trx, table, columns, values, rows) => bulk.insertValues(trx, table, columns, values, rows),
    // SQLite has one writer at a time already.
    lockExclusively: () => Promise.resolve(),
  };
  return { db, writer };
}

let turn = Promise.resolve();
port.on('message', (message: ToWriterThread) => {
  turn = turn.then(async () => {
    let reply: FromWriterThread;
    try {
      reply = { id: message.id, ok: true, firstId: await handle(message), threadId };
    } catch (error) {
      reply = { id: message.id, ok: false, message: error instanceof Error ? error.message : String(error) };
    }
    port.postMessage(reply);
  });
});

async function handle(message: ToWriterThread): Promise<number> {
  let connection = connections.get(message.file);
  if (message.op === 'release') {
    connections.delete(message.file);
    await connection?.db.destroy();
    return 0;
  }
  if (!connection) {
    connection = await connect(message.file);
    connections.set(message.file, connection);
  }
  const { db, writer } = connection;
  const release = acquireTurnBlocking(message.turn);
  try {
    // `begin immediate` (the engine's dialect): the write lock from the start, held for one chunk only.
    return await db.transaction().execute(async (trx) => {
      const firstId = await reserveIds(trx, MONITORING_SEQUENCE, message.rows);
      await insertEncodedRows(writer, trx, message, firstId);
      return firstId;
    });
  } finally {
    release();
  }
}
