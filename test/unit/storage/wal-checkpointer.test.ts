import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src-server/core/logging/logger.js';
import { Database } from '../../../src-server/core/storage/database.js';
import { BACKSTOP_AUTOCHECKPOINT_PAGES } from '../../../src-server/core/storage/wal-checkpointer.js';
import { tempDir } from '../../helpers/temp-dir.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function open() {
  const dir = await tempDir();
  cleanups.push(dir.remove);
  const database = await Database.open({ dataDir: dir.path, logger: createLogger('silent') });
  cleanups.push(() => database.close());
  return { database, file: join(dir.path, 'gatehouse.db') };
}

const autoCheckpoint = (database: Database) =>
  database.sqlite!.pragma('wal_autocheckpoint', { simple: true }) as number;

/** About 2.5 MB of WAL pages per call (well under the backstop, well over SQLite's default of 1,000 pages). */
async function writeRelaxed(database: Database, from: number, count: number): Promise<void> {
  for (let index = from; index < from + count; index++) {
    await database.transaction(
      async (trx) => {
        await sql`insert into meta (key, value) values (${`bulk-${index}`}, ${'x'.repeat(250_000)})`.execute(
          trx,
        );
      },
      { relaxed: true },
    );
  }
}

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('the condition did not come true in time');
    await sleep(50);
  }
}

describe('checkpoints of the SQLite WAL in a worker thread', () => {
  it('takes checkpoints off the writing connection once relaxed writes start, and copies the WAL into the file', async () => {
    const { database, file } = await open();
    // Durable writes only (the Control Panel): SQLite's own auto-checkpoint, no worker.
    expect(autoCheckpoint(database)).toBe(1_000);

    await writeRelaxed(database, 0, 1);
    await until(() => autoCheckpoint(database) === BACKSTOP_AUTOCHECKPOINT_PAGES);
    const fileBefore = statSync(file).size;
    await writeRelaxed(database, 1, 10);
    // The writer no longer checkpoints under 16,384 pages: the database file grows only by the worker's checkpoints.
    await until(() => statSync(file).size > fileBefore + 2_000_000);
    const rows = await database.db.selectFrom('meta').select('key').where('key', 'like', 'bulk-%').execute();
    expect(rows).toHaveLength(11);
  });

  it('hands checkpoints back to the writer when closing, which leaves no WAL behind', async () => {
    const { database, file } = await open();
    await writeRelaxed(database, 0, 3);
    await until(() => autoCheckpoint(database) === BACKSTOP_AUTOCHECKPOINT_PAGES);
    await database.close();
    expect(existsSync(`${file}-wal`)).toBe(false);

    const reopened = await Database.open({ dataDir: join(file, '..'), logger: createLogger('silent') });
    cleanups.push(() => reopened.close());
    const rows = await reopened.db.selectFrom('meta').select('key').where('key', 'like', 'bulk-%').execute();
    expect(rows).toHaveLength(3);
  });
});
