import { threadId } from 'node:worker_threads';
import { beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src-server/core/logging/logger.js';
import { Monitoring } from '../../../src-server/core/monitoring/monitoring.js';
import { SqlMonitoringStore } from '../../../src-server/core/monitoring/sql/sql-monitoring-store.js';
import { MAX_ROWS_PER_WRITER_TRANSACTION } from '../../../src-server/core/monitoring/sql/monitoring-write-protocol.js';
import type { Database } from '../../../src-server/core/storage/database.js';
import { record } from './helpers.js';
import { sqliteDatabasePerTest } from './sqlite-database.js';

const count = async (database: Database) =>
  (
    await database.db
      .selectFrom('monitoring_records')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
  ).n;

describe('API monitoring writes on SQLite', () => {
  const databases = sqliteDatabasePerTest();
  let database: Database;
  beforeEach(() => {
    database = databases.current();
  });

  it("commit on the writer thread's own connection while the main connection holds a read snapshot", async () => {
    const store = new SqlMonitoringStore(database);
    await store.append([record()]);
    const main = database.sqlite!;
    main.exec('begin');
    const snapshot = main.prepare('select count(*) as n from monitoring_records');
    expect(snapshot.get()).toEqual({ n: 1 });
    // On the main connection this would fail: it is inside a transaction already.
    const batch = Array.from({ length: MAX_ROWS_PER_WRITER_TRANSACTION * 2 + 7 }, (_, k) =>
      record({ path: `/r/${k}` }),
    );
    const stored = await store.append(batch);
    expect(store.lastWriterThreadId).toBeGreaterThan(0);
    expect(store.lastWriterThreadId).not.toBe(threadId);
    // The main connection's snapshot predates the writer thread's commits; once it ends, it sees them.
    expect(snapshot.get()).toEqual({ n: 1 });
    main.exec('commit');
    expect(await count(database)).toBe(batch.length + 1);
    // Ids in order over the chunks (each its own transaction), as the records were appended.
    expect(stored.map((r) => r.path)).toEqual(batch.map((r) => r.path));
    const ids = stored.map((r) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
    expect((await store.get(ids.at(-1)!))?.path).toBe(batch.at(-1)!.path);
    await store.close();
  });

  it('reads back text fields that repeat, change and go absent from one record to the next', async () => {
    const store = new SqlMonitoringStore(database);
    // Equal values as distinct strings too (a request's path is a new string each time).
    const fresh = (text: string) => `${text} `.slice(0, -1);
    const batch = [
      record({ identity: 'public', reason: undefined, path: '/a' }),
      record({ identity: fresh('public'), reason: undefined, path: fresh('/a') }),
      record({ identity: undefined, reason: 'r1', path: '/b' }),
      record({ identity: 'apiKey:gh_1', reason: 'r1', path: '/a' }),
      record({ identity: 'public', reason: undefined, path: '/b' }),
      record({ identity: 'public', reason: 'r2', path: '/b' }),
    ];
    const stored = await store.append(batch);
    const read = await Promise.all(stored.map((r) => store.get(r.id)));
    expect(read.map((r) => [r?.identity, r?.reason, r?.path])).toEqual(
      batch.map((r) => [r.identity, r.reason, r.path]),
    );
    expect(store.lastWriterThreadId).toBeGreaterThan(0);
    await store.close();
  });

  it('lets a main-thread transaction that reads, then writes, finish while the writer thread waits to commit', async () => {
    const store = new SqlMonitoringStore(database);
    await store.append([record()]);
    let appended: Promise<unknown> | undefined;
    await database.transaction(async (trx) => {
      await trx.selectFrom('sequences').selectAll().execute();
      appended = store.append([record({ path: '/during' })]);
      // Time for the writer thread to try its commit; a deferred transaction's write below would then fail.
      await new Promise((resolve) => setTimeout(resolve, 200));
      await trx.insertInto('sequences').values({ name: 'test', value: 1 }).execute();
    });
    await appended;
    expect(await count(database)).toBe(2);
    await store.close();
  });

  it('stores on close what was recorded, and applies retention to what the writer thread wrote', async () => {
    const now = Date.parse(record().time) + 3 * 3_600_000;
    const store = new SqlMonitoringStore(database, () => now);
    const monitoring = Monitoring.open({
      store,
      logger: createLogger('silent'),
      recorder: { batchSize: 100_000 },
    });
    for (let k = 0; k < 600; k++) monitoring.record(record({ path: `/c/${k}` }));
    monitoring.record(record({ time: new Date(now).toISOString(), path: '/recent' }));
    await monitoring.close();
    expect(store.lastWriterThreadId).toBeGreaterThan(0);
    expect(await count(database)).toBe(601);

    const again = new SqlMonitoringStore(database, () => now);
    expect(await again.applyRetention({ now, maxAgeMs: 3_600_000 })).toEqual({ removed: 600 });
    expect((await again.query({ pageNumber: 1, pageSize: 10 })).items.map((r) => r.path)).toEqual([
      '/recent',
    ]);
    expect(await again.stats()).toEqual({ records: 1 });
    await again.close();
  });
});
