import { afterEach, beforeEach } from 'vitest';
import type { Database } from '../../../src-server/core/storage/database.js';
import { StoreFixture } from './helpers.js';

/** A fresh SQLite database for each test of the calling `describe`; `current()` is the test's. */
export function sqliteDatabasePerTest(): { current: () => Database } {
  let fixture: StoreFixture;
  let database: Database;
  beforeEach(async () => {
    fixture = await StoreFixture.create('sqlite');
    database = await fixture.openDatabase();
  });
  afterEach(async () => {
    await database.close();
    await fixture.dispose();
  });
  return { current: () => database };
}

/** The paths of the stored monitoring records. */
export async function storedPaths(database: Database): Promise<string[]> {
  return (await database.db.selectFrom('monitoring_records').select('path').execute()).map((row) => row.path);
}
