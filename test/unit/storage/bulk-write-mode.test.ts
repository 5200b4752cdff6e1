import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { NewAuditEntry } from '../../../src-server/core/audit/audit-entry.js';
import { importAuditEntries } from '../../../src-server/core/audit/sql/audit-import.js';
import { createLogger } from '../../../src-server/core/logging/logger.js';
import { withBulkWriteMode } from '../../../src-server/core/storage/bulk-write-mode.js';
import { Database } from '../../../src-server/core/storage/database.js';
import { SQLITE_BULK_CACHE_KIB, SQLITE_CACHE_KIB } from '../../../src-server/core/storage/sqlite-engine.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { BASE_MS, entryAt } from '../audit-store/helpers.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function openSqlite(): Promise<Database> {
  return (await openSqliteIn()).database;
}

async function openSqliteIn(): Promise<{ database: Database; dir: string }> {
  const dir = await tempDir();
  cleanups.push(dir.remove);
  const database = await Database.open({ dataDir: dir.path, logger: createLogger('silent') });
  cleanups.push(() => database.close());
  return { database, dir: dir.path };
}

function walBytes(dir: string): number {
  try {
    return statSync(join(dir, 'gatehouse.db-wal')).size;
  } catch {
    return 0;
  }
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
    const first = withBulkWriteMode(database, () => new Promise<void>((resolve) => (releaseFirst = resolve)));
    await withBulkWriteMode(database, () => Promise.resolve(cacheKib(database))).then((inside) =>
      expect(inside).toBe(SQLITE_BULK_CACHE_KIB),
    );
    expect(cacheKib(database)).toBe(SQLITE_BULK_CACHE_KIB);
    releaseFirst();
    await first;
    expect(cacheKib(database)).toBe(SQLITE_CACHE_KIB);
  });
});

describe('the write-ahead log of a bulk write on SQLite', () => {
  it('stays small while an import writes chunk after chunk (the writer checkpoints it)', async () => {
    const { database, dir } = await openSqliteIn();
    let largest = 0;
    function* entries(): Generator<NewAuditEntry> {
      for (let k = 0; k < 60_000; k++) {
        if (k % 1_000 === 0) largest = Math.max(largest, walBytes(dir));
        yield entryAt(BASE_MS + k * 1_000);
      }
    }
    const result = await importAuditEntries(database, entries(), undefined, Date.now, 'acme');
    expect(result.added).toBe(60_000);
    largest = Math.max(largest, walBytes(dir));
    // A chunk's pages and the checkpoint's threshold: tens of MB would mean the log grows with the import.
    expect(largest).toBeLessThan(24 * 1024 * 1024);
  });
});

describe('the statement journals of a bulk write on SQLite', () => {
  /** 0: SQLite's default (a temporary file past 64 KiB), 2: memory. */
  const tempStore = (database: Database) => database.sqlite!.pragma('temp_store', { simple: true });

  it('stay in memory while an import writes its multi-row statements, and the default comes back after', async () => {
    const database = await openSqlite();
    expect(tempStore(database)).toBe(0);
    const seen: unknown[] = [];
    function* entries(): Generator<NewAuditEntry> {
      for (let k = 0; k < 120; k++) {
        if (k % 60 === 0) seen.push(tempStore(database));
        yield entryAt(BASE_MS + k * 1_000);
      }
    }
    const result = await importAuditEntries(database, entries(), undefined, Date.now, 'acme');
    expect(result.added).toBe(120);
    expect(seen).toEqual([2, 2]);
    expect(tempStore(database)).toBe(0);
    const rows = database.sqlite!.prepare('select count(*) as n from audit_entries').get() as { n: number };
    expect(rows.n).toBe(120);
  });
});
