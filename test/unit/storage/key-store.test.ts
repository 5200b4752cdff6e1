import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KeyStore } from '../../../src-server/core/config-store/key-store.js';
import { SecretBox } from '../../../src-server/core/config-store/secret-box.js';
import { createLogger } from '../../../src-server/core/logging/logger.js';
import { Database } from '../../../src-server/core/storage/database.js';
import { DatabaseOpenError } from '../../../src-server/core/storage/storage-errors.js';
import { createTestDatabase, ENGINES } from '../../helpers/test-database.js';
import { tempDir } from '../../helpers/temp-dir.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.each(ENGINES)('key material on %s', (engine) => {
  it('is created once, shared by instances on the database, sealed with the key file, which must match', async () => {
    const dir = await tempDir();
    cleanups.push(dir.remove);
    const connectionString = await createTestDatabase(engine);
    const open = async () => {
      const database = await Database.open({
        dataDir: dir.path,
        connectionString,
        logger: createLogger('silent'),
      });
      cleanups.push(() => database.close());
      return database;
    };
    const keyFile = join(dir.path, 'keys', 'secrets.key');
    const first = await open();
    const box = await SecretBox.open(keyFile);
    const a = await KeyStore.open(first, box, keyFile);
    const [x, y] = await Promise.all([
      a.loadOrCreate('test.key', () => 'first value'),
      a.loadOrCreate('test.key', () => 'second value'),
    ]);
    expect(x).toBe(y);
    const rows = await first.db.selectFrom('key_material').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(x);

    // A second instance with the same key file reads the same value (on SQLite: the same file, reopened).
    const second = await open();
    const b = await KeyStore.open(second, await SecretBox.open(keyFile), keyFile);
    expect(await b.loadOrCreate('test.key', () => 'another')).toBe(x);

    // One given another key file is refused at open, with the way out.
    const otherFile = join(dir.path, 'other', 'secrets.key');
    const opening = KeyStore.open(second, await SecretBox.open(otherFile), otherFile);
    await expect(opening).rejects.toBeInstanceOf(DatabaseOpenError);
    await expect(opening).rejects.toThrow(/not the key the secrets .* were sealed with.*Secrets:KeyFile/);
  });
});
