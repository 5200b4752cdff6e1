import { afterEach, describe, expect, it } from 'vitest';
import type { NewAuditEntry } from '../../../src-server/core/audit/audit-entry.js';
import { importAuditEntries } from '../../../src-server/core/audit/sql/audit-import.js';
import { createLogger } from '../../../src-server/core/logging/logger.js';
import { withBulkWriteCache } from '../../../src-server/core/storage/bulk-write-cache.js';
import { Database } from '../../../src-server/core/storage/database.js';
import { SQLITE_BULK_CACHE_KIB, SQLITE_CACHE_KIB } from '../../../src-server/core/storage/sqlite-engine.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { BASE_MS, entryAt } from '../audit-store/helpers.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function openSqlite(): Promise<Database> {
  const dir = await tempDir();
  cleanups.push(dir.remove);
  const database = await Database.open({ dataDir: dir.path, logger: createLogger('silent') });
  cleanups.push(() => database.close());
  return database;
}

/** The connection's page cache in KiB (SQLite reports a size in KiB as a negative number). */
function cacheKib(database: Database): number {
  return -(database.sqlite!.pragma('cache_size', { simple: true }) as number);
}

describe('the page cache of a bulk write on SQLite', () => {
  it('is raised while an audit import writes and given back when it ends', async () => {
    const database = await openSqlite();
    expect(cacheKib(database)).toBe(SQLITE_CACHE_KIB);
    const seen: number[] = [];
    // Read lazily, as a file is: the import pulls each entry while it writes the chunks before it.
    function* entries(): Generator<NewAuditEntry> {
      for (let k = 0; k < 12_000; k++) {
        if (k % 4_000 === 0) seen.push(cacheKib(database));
        yield entryAt(BASE_MS + k * 1_000);
      }
    }
    const result = await importAuditEntries(database, entries(), undefined, Date.now, 'acme');
    expect(result.added).toBe(12_000);
    expect(seen).toEqual([SQLITE_BULK_CACHE_KIB, SQLITE_BULK_CACHE_KIB, SQLITE_BULK_CACHE_KIB]);
    expect(cacheKib(database)).toBe(SQLITE_CACHE_KIB);
  });

  it('is given back when the import stops at an invalid entry', async () => {
    const database = await openSqlite();
    const entries = [entryAt(BASE_MS), { ...entryAt(BASE_MS + 1), timestamp: 'not a time' }];
    await expect(importAuditEntries(database, entries, undefined, Date.now, 'acme')).rejects.toThrow(
      /Import stopped at entry 2/,
    );
    expect(cacheKib(database)).toBe(SQLITE_CACHE_KIB);
  });

  it('stays raised until the last of two bulk writes at once ends', async () => {
    const database = await openSqlite();
    let releaseFirst!: () => void;
    const first = withBulkWriteCache(
      database,
      () => new Promise<void>((resolve) => (releaseFirst = resolve)),
    );
    await withBulkWriteCache(database, () => Promise.resolve(cacheKib(database))).then((inside) =>
      expect(inside).toBe(SQLITE_BULK_CACHE_KIB),
    );
    expect(cacheKib(database)).toBe(SQLITE_BULK_CACHE_KIB);
    releaseFirst();
    await first;
    expect(cacheKib(database)).toBe(SQLITE_CACHE_KIB);
  });
});
