import { beforeEach, describe, expect, it } from 'vitest';
import { SqlMonitoringStore } from '../../../src-server/core/monitoring/sql/sql-monitoring-store.js';
import { endWriterThread } from '../../../src-server/core/monitoring/sql/monitoring-write-thread.js';
import { MAX_ROWS_PER_WRITER_TRANSACTION } from '../../../src-server/core/monitoring/sql/monitoring-write-protocol.js';
import type { Database } from '../../../src-server/core/storage/database.js';
import { record } from './helpers.js';
import { sqliteDatabasePerTest, storedPaths } from './sqlite-database.js';

// A file of its own: once the writer thread ended, this process writes monitoring on the main thread for good.

describe('API monitoring writes on SQLite when the writer thread ends in the middle of a batch', () => {
  const databases = sqliteDatabasePerTest();
  let database: Database;
  beforeEach(() => {
    database = databases.current();
  });

  it('stores the whole batch and leaves the write lock to the main thread', async () => {
    const store = new SqlMonitoringStore(database);
    const batch = Array.from({ length: MAX_ROWS_PER_WRITER_TRANSACTION * 20 }, (_, k) =>
      record({ path: `/stream/${k}` }),
    );
    const appended = store.append(batch);
    // Ends the thread once it has committed part of the batch: most likely while it holds the turn.
    for (;;) {
      const { n } = await database.db
        .selectFrom('monitoring_records')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      if (n > 0) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    await endWriterThread();
    const stored = await appended;
    expect(stored.map((r) => r.path)).toEqual(batch.map((r) => r.path));
    // Every record is stored; one transaction committed in the instant before the thread could say so would be
    // stored twice (the documented cost of the fallback), never once less.
    const written = new Set(await storedPaths(database));
    expect(batch.filter((r) => !written.has(r.path))).toEqual([]);
    // A durable main-thread write is not left waiting for a turn the ended thread held.
    await database.transaction(async (trx) => {
      await trx.insertInto('sequences').values({ name: 'after', value: 1 }).execute();
    });
    await store.close();
  });
});
