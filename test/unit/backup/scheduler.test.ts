import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runHere } from '../../../src-server/core/backup/backup-jobs.js';
import { runDueBackup } from '../../../src-server/core/backup/backup-scheduler.js';
import { Backups } from '../../../src-server/core/backup/backups.js';
import { ConfigStore } from '../../../src-server/core/config-store/config-store.js';
import { createLogger } from '../../../src-server/core/logging/logger.js';
import { Database } from '../../../src-server/core/storage/database.js';
import { tempDir } from '../../helpers/temp-dir.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const logger = createLogger('silent');

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('the daily backup', () => {
  it('is taken when the newest is a day old, and drops configuration versions the window no longer reaches', async () => {
    const dir = await tempDir();
    cleanups.push(dir.remove);
    let clock = Date.now() - 50 * DAY;
    const database = await Database.open({ dataDir: dir.path, logger });
    cleanups.push(() => database.close());
    const configStore = await ConfigStore.open(database, () => new Date(clock));
    const backups = new Backups({
      databaseFile: join(dir.path, 'gatehouse.db'),
      directory: join(dir.path, 'backups'),
      now: () => clock,
      run: runHere,
    });
    const options = { backups, configStore, logger, now: () => new Date(clock) };
    const versions = async () =>
      (await database.db.selectFrom('config_records').select('key').where('kind', '=', 'tenant').execute())
        .length;

    await runDueBackup(options);
    expect((await backups.list()).map((backup) => backup.kind)).toEqual(['full']);
    clock += 23 * HOUR;
    await runDueBackup(options);
    expect(await backups.list()).toHaveLength(1);
    clock += 2 * HOUR;
    await configStore.update((data) => {
      data.tenant.name = 'renamed';
    });
    await runDueBackup(options);
    expect((await backups.list()).map((backup) => backup.kind)).toEqual(['full', 'differential']);
    // The tenant's first version was replaced just now: kept for 35 days, then dropped.
    expect(await versions()).toBe(2);
    clock += 36 * DAY;
    await runDueBackup(options);
    expect(await versions()).toBe(1);
    expect(configStore.data.tenant.name).toBe('renamed');
  });
});
