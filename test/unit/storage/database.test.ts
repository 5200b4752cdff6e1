import { sql } from 'kysely';
import { randomBytes } from 'node:crypto';
import { stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src-server/core/logging/logger.js';
import { Database } from '../../../src-server/core/storage/database.js';
import { SQLITE_FILE_NAME } from '../../../src-server/core/storage/sqlite-engine.js';
import { DatabaseOpenError } from '../../../src-server/core/storage/storage-errors.js';
import { createTestDatabase, ENGINES } from '../../helpers/test-database.js';
import { tempDir } from '../../helpers/temp-dir.js';

const logger = createLogger('silent');
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function openFresh(engine: (typeof ENGINES)[number]): Promise<{ database: Database; dataDir: string }> {
  const dir = await tempDir();
  cleanups.push(dir.remove);
  const database = await Database.open({
    dataDir: dir.path,
    connectionString: await createTestDatabase(engine),
    logger,
  });
  cleanups.push(() => database.close());
  return { database, dataDir: dir.path };
}

describe.each(ENGINES)('the database on %s', (engine) => {
  it('migrates a new database and again on reopen without changes', async () => {
    const { database } = await openFresh(engine);
    expect(database.kind).toBe(engine);
    const tables = await database.db.introspection.getTables();
    expect(tables.map((table) => table.name)).toEqual(
      expect.arrayContaining([
        'audit_entries',
        'monitoring_records',
        'config_records',
        'config_commits',
        'schema_migrations',
      ]),
    );
  });

  it('refuses at open a database that ran a migration this version does not know, naming the way out', async () => {
    const dir = await tempDir();
    cleanups.push(dir.remove);
    const connectionString = await createTestDatabase(engine);
    const first = await Database.open({ dataDir: dir.path, connectionString, logger });
    await sql`insert into schema_migrations (name, timestamp) values ('9999-from-a-newer-version', '2026-11-27T00:00:00.000Z')`.execute(
      first.db,
    );
    await first.close();
    const reopening = Database.open({ dataDir: dir.path, connectionString, logger });
    await expect(reopening).rejects.toThrow(DatabaseOpenError);
    await expect(reopening).rejects.toThrow(/written by a newer Gatehouse.*Upgrade Gatehouse/);
  });

  it('reserves increasing ids per sequence, never the same twice', async () => {
    const { database } = await openFresh(engine);
    const first = await database.transaction((trx) => database.reserveIds(trx, 'test', 3));
    const second = await database.transaction((trx) => database.reserveIds(trx, 'test', 2));
    const other = await database.transaction((trx) => database.reserveIds(trx, 'other', 1));
    expect([first, second, other]).toEqual([1, 4, 1]);
    await database.transaction((trx) => database.raiseSequence(trx, 'test', 100));
    await database.transaction((trx) => database.raiseSequence(trx, 'test', 50));
    expect(await database.transaction((trx) => database.reserveIds(trx, 'test', 1))).toBe(101);
  });

  it('runs a query compiled once with new values, and refuses values out of the compiled order', async () => {
    const { database } = await openFresh(engine);
    await database.transaction(async (trx) => {
      await database.upsert(
        trx,
        'sequences',
        ['name'],
        [
          { name: 'a', value: 5 },
          { name: 'b', value: 7 },
        ],
      );
      await database.upsert(trx, 'sequences', ['name'], [{ name: 'a', value: 9 }]);
    });
    const valueAtLeast = (name: string, least: number, order: 'compiled' | 'swapped') =>
      database.transaction((trx) =>
        database.runCompiled(
          trx,
          `test.valueAtLeast.${order}`,
          () =>
            trx.selectFrom('sequences').select('value').where('name', '=', name).where('value', '>=', least),
          order === 'compiled' ? [name, least] : [least, name],
        ),
      );
    expect(await valueAtLeast('a', 1, 'compiled')).toEqual([{ value: 9 }]);
    expect(await valueAtLeast('b', 1, 'compiled')).toEqual([{ value: 7 }]);
    expect(await valueAtLeast('b', 8, 'compiled')).toEqual([]);
    await expect(valueAtLeast('a', 1, 'swapped')).rejects.toThrow(/not in the compiled query's order/);
  });

  it('rolls a failed transaction back', async () => {
    const { database } = await openFresh(engine);
    await expect(
      database.transaction(async (trx) => {
        await database.reserveIds(trx, 'test', 5);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await database.transaction((trx) => database.reserveIds(trx, 'test', 1))).toBe(1);
  });
});

describe('the SQLite file', () => {
  it('takes big commits into the file off the main thread: its own checkpoint is off, a worker checkpoints', async () => {
    const { database, dataDir } = await openFresh('sqlite');
    const file = join(dataDir, SQLITE_FILE_NAME);
    const sqlite = (await import('better-sqlite3')).default;
    // 6 MB of incompressible text in one durable transaction: past the 4 MB at which SQLite would checkpoint.
    const content = Buffer.from(randomBytes(4_500_000).toString('base64'));
    await database.transaction((trx) =>
      trx
        .insertInto('api_documents')
        .values({ name: 'big', media_type: null, content, created_at: 1, removed_at: null })
        .execute(),
    );
    // Committed and flushed: another connection reads it at once.
    const reader = new sqlite(file, { readonly: true });
    expect(
      (
        reader.prepare("select length(content) as n from api_documents where name = 'big'").get() as {
          n: number;
        }
      ).n,
    ).toBe(content.length);
    reader.close();
    // Checkpointed: the pages moved from the WAL into the file, which only a writable connection does.
    await expect
      .poll(async () => (await stat(file)).size, { timeout: 10_000 })
      .toBeGreaterThan(content.length);
  });

  it('checkpoints what relaxed commits wrote (monitoring under gateway load) in the worker too', async () => {
    const { database, dataDir } = await openFresh('sqlite');
    const file = join(dataDir, SQLITE_FILE_NAME);
    // The main connection never checkpoints by itself: that ran on the gateway's thread, inside its commits.
    const { rows } = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(
      database.db,
    );
    expect(rows[0]?.wal_autocheckpoint).toBe(0);
    const content = Buffer.from(randomBytes(4_500_000).toString('base64'));
    await database.transaction(
      (trx) =>
        trx
          .insertInto('api_documents')
          .values({ name: 'relaxed', media_type: null, content, created_at: 1, removed_at: null })
          .execute(),
      { relaxed: true },
    );
    // No durable commit follows: the WAL's size is looked at every second, and the worker checkpoints it.
    await expect
      .poll(async () => (await stat(file)).size, { timeout: 10_000 })
      .toBeGreaterThan(content.length);
  });

  it('is owner-only', async () => {
    const { dataDir } = await openFresh('sqlite');
    expect((await stat(join(dataDir, SQLITE_FILE_NAME))).mode & 0o777).toBe(0o600);
    expect((await stat(join(dataDir, `${SQLITE_FILE_NAME}-wal`))).mode & 0o777).toBe(0o600);
  });

  it('that is not a database is refused at open, named, with the way out', async () => {
    const dir = await tempDir();
    cleanups.push(dir.remove);
    await writeFile(join(dir.path, SQLITE_FILE_NAME), 'this is not a database, just some text '.repeat(200));
    const opening = Database.open({ dataDir: dir.path, logger });
    await expect(opening).rejects.toBeInstanceOf(DatabaseOpenError);
    await expect(opening).rejects.toThrow(/gatehouse\.db is damaged.*restore/);
  });
});

describe('PostgreSQL', () => {
  it('unreachable at open: a clear error naming the server, without the password', async () => {
    const opening = Database.open({
      dataDir: '/nonexistent',
      connectionString: 'postgres://someone:hunter2@127.0.0.1:1/gatehouse',
      logger,
    });
    await expect(opening).rejects.toBeInstanceOf(DatabaseOpenError);
    await expect(opening).rejects.toThrow(
      /PostgreSQL at postgres:\/\/someone@127\.0\.0\.1:1\/gatehouse .* cannot be reached/,
    );
    await expect(opening).rejects.not.toThrow(/hunter2/);
  });

  // A search's one statement passes jit_above_cost by the planner's estimate: compiling it took seconds.
  it('runs statements without JIT compilation, on every connection of the pool', async () => {
    const { database } = await openFresh('postgres');
    const settings = await Promise.all(
      Array.from({ length: 3 }, () =>
        sql<{ jit: string }>`select current_setting('jit') as jit`.execute(database.db),
      ),
    );
    expect(settings.map(({ rows }) => rows[0]?.jit)).toEqual(['off', 'off', 'off']);
  });
});
