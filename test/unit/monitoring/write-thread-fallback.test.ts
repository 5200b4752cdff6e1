import { beforeEach, describe, expect, it } from 'vitest';
import { SqlMonitoringStore } from '../../../src-server/core/monitoring/sql/sql-monitoring-store.js';
import { endWriterThread } from '../../../src-server/core/monitoring/sql/monitoring-write-thread.js';
import type { Database } from '../../../src-server/core/storage/database.js';
import { record } from './helpers.js';
import { sqliteDatabasePerTest, storedPaths } from './sqlite-database.js';

// A file of its own: once the writer thread ended, this process writes monitoring on the main thread for good.

describe('API monitoring writes on SQLite when the writer thread ends', () => {
  const databases = sqliteDatabasePerTest();
  let database: Database;
  beforeEach(() => {
    database = databases.current();
  });

  it('writes on the main connection a batch the thread had not written, and every batch after it', async () => {
    const store = new SqlMonitoringStore(database);
    await store.append([record({ path: '/before' })]);
    expect(store.lastWriterThreadId).toBeGreaterThan(0);
    const batch = Array.from({ length: 300 }, (_, k) => record({ path: `/unwritten/${k}` }));
    let appended: ReturnType<SqlMonitoringStore['append']> | undefined;
    await database.transaction(async (trx) => {
      // The main thread holds the turn at the write lock: the thread cannot have written any of the batch.
      appended = store.append(batch);
      await endWriterThread();
      await trx.insertInto('sequences').values({ name: 'during', value: 1 }).execute();
    });
    const stored = await appended!;
    expect(store.lastWriterThreadId).toBe(0);
    expect(stored.map((r) => r.path)).toEqual(batch.map((r) => r.path));
    const ids = stored.map((r) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
    expect((await store.get(ids.at(-1)!))?.path).toBe('/unwritten/299');

    await store.append([record({ path: '/after' })]);
    expect(store.lastWriterThreadId).toBe(0);
    expect((await storedPaths(database)).sort()).toEqual(
      ['/before', '/after', ...batch.map((r) => r.path)].sort(),
    );
    await store.close();
  });
});
