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
});
