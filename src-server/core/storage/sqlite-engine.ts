import { chmod, open as openFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { startWorker } from '../threads/worker-thread.js';
import BetterSqlite3 from 'better-sqlite3';
import { packageInfo } from '../data-dir/package-root.js';
import {
  CompiledQuery,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type SqliteDialectConfig,
  type TransactionSettings,
} from 'kysely';
import {
  DatabaseDamagedError,
  DatabaseOpenError,
  isSqliteDamage,
  isSqliteResourceError,
  StorageUnavailableError,
} from './storage-errors.js';

export const SQLITE_FILE_NAME = 'gatehouse.db';
const STATEMENT_CACHE_SIZE = 256;
/**
 * SQLite's page cache of the server's connection, in KiB (a negative `cache_size`). better-sqlite3 builds SQLite
 * with a 16 MiB default, which a server answering the query mix of a 1M-entry trail fills and keeps for good; the
 * pages come from the OS's file cache anyway (measured in the commit that set this).
 */
export const SQLITE_CACHE_KIB = 4096;
/** The cache while an import writes (`bulk-write-mode.ts`): better-sqlite3's default. */
export const SQLITE_BULK_CACHE_KIB = 16384;
/** The integrity check reads each page once: a cache would only hold pages it never reads again. */
const CHECK_CACHE_PAGES = 64;

export interface SqliteEngine {
  dialect: Dialect;
  handle: BetterSqlite3.Database;
  translate: (error: unknown) => unknown;
}

/**
 * Inside Electron, the native module built for Electron's Node (scripts/build-native-electron.mjs); elsewhere
 * the one in node_modules, built for Node by npm.
 */
export function nativeBindingForRuntime(): string | undefined {
  if (!process.versions.electron) return nodeBinding();
  const binding = join(packageInfo().root, 'out', 'native', 'electron', 'better_sqlite3.node');
  if (!existsSync(binding)) {
    throw new DatabaseOpenError(
      `The SQLite module for Electron is missing (${binding}): start the desktop app with npm start, which builds it.`,
    );
  }
  return binding;
}

let nodeBindingFile: string | null | undefined;

/**
 * The module npm built, by its path: without one, better-sqlite3 looks for it through `bindings`, a failed
 * require per place it tries (~3 ms of CPU on every start). Undefined where it is not there: `bindings` then
 * finds it (a Debug build, say).
 */
function nodeBinding(): string | undefined {
  if (nodeBindingFile === undefined) {
    try {
      nodeBindingFile = createRequire(import.meta.url).resolve(
        'better-sqlite3/build/Release/better_sqlite3.node',
      );
    } catch {
      nodeBindingFile = null;
    }
  }
  return nodeBindingFile ?? undefined;
}

/** The way out named in every message about a damaged file. */
export function damagedFileAdvice(file: string): string {
  return `The database file ${file} is damaged. Stop Gatehouse and restore the data dir from the latest backup (gatehouse backup list, then gatehouse restore --to <time> --into <dir>).`;
}

/**
 * Opens (creating it owner-only) the SQLite file: WAL journal, and `synchronous=FULL` so that a commit is on disk
 * (the WAL fsync'd) before it returns: an acknowledged audit entry survives a crash or a power cut.
 */
export async function openSqliteEngine(
  file: string,
  options: { readonly?: boolean } = {},
): Promise<SqliteEngine> {
  if (!options.readonly) {
    // SQLite gives its -wal and -shm files the mode of the database file.
    await (await openFile(file, 'a', 0o600)).close();
    await chmod(file, 0o600);
  }
  let handle: BetterSqlite3.Database;
  try {
    handle = new BetterSqlite3(file, {
      readonly: options.readonly === true,
      fileMustExist: options.readonly === true,
      nativeBinding: nativeBindingForRuntime(),
    });
    handle.pragma('busy_timeout = 5000');
    handle.pragma(`cache_size = -${SQLITE_CACHE_KIB}`);
    if (!options.readonly) {
      handle.pragma('journal_mode = WAL');
      handle.pragma('synchronous = FULL');
    }
    // Reads the header and the schema: a file that is not a database at all fails here.
    handle.prepare('select count(*) as n from sqlite_master').get();
  } catch (error) {
    if (isSqliteDamage(error)) throw new DatabaseOpenError(damagedFileAdvice(file), { cause: error });
    throw new DatabaseOpenError(`The database file ${file} cannot be opened: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const translate = (error: unknown): unknown => {
    if (error instanceof StorageUnavailableError) return error;
    if (isSqliteDamage(error)) return new DatabaseDamagedError(damagedFileAdvice(file), { cause: error });
    if (isSqliteResourceError(error)) {
      return new StorageUnavailableError(
        'The database cannot be written right now (disk full or not writable); the server log says why.',
        {
          cause: error,
        },
      );
    }
    return error;
  };
  return {
    dialect: new WriterFirstSqliteDialect({ database: cachingStatements(handle) }),
    handle,
    translate,
  };
}

/**
 * Transactions take SQLite's write lock when they begin (`begin immediate`), except snapshot reads (Kysely's
 * `repeatable read`, which on SQLite is a plain deferred transaction). The file has a second writer, API
 * monitoring's thread (monitoring-write-worker.ts): a deferred transaction that reads, then writes after that
 * thread committed, would fail at once with SQLITE_BUSY (its snapshot is stale, so the busy timeout cannot help);
 * one that holds the lock from its start waits (busy_timeout) for the other writer's short transaction instead.
 */
class WriterFirstSqliteDialect extends SqliteDialect {
  constructor(private readonly config: SqliteDialectConfig) {
    super(config);
  }

  override createDriver(): Driver {
    return new WriterFirstSqliteDriver(this.config);
  }
}

class WriterFirstSqliteDriver extends SqliteDriver {
  override async beginTransaction(
    connection: DatabaseConnection,
    settings?: TransactionSettings,
  ): Promise<void> {
    const begin = settings?.isolationLevel === 'repeatable read' ? 'begin' : 'begin immediate';
    await connection.executeQuery(CompiledQuery.raw(begin));
  }
}

/** Kysely prepares every query it runs; the same SQL text gets the same prepared statement here instead. */
function cachingStatements(handle: BetterSqlite3.Database) {
  const cache = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => handle.close(),
    prepare(sql: string) {
      let statement = cache.get(sql);
      if (statement) {
        cache.delete(sql);
      } else {
        statement = handle.prepare(sql);
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      }
      cache.set(sql, statement);
      return statement;
    },
  };
}

/**
 * Runs SQLite's `quick_check` (every page's structure, every index against its table) on its own read-only
 * connection in a worker thread: it reads the whole file, which must not hold up the start or the event loop.
 * The thread runs at the lowest priority: over 1M entries the check takes ~3 s of CPU, which on a small machine
 * slowed the requests answered meanwhile (bench:audit's first query shapes). Resolves with the problems found
 * (empty when the file is sound).
 */
export function checkSqliteFile(file: string): Promise<string[]> {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    const Database = require(workerData.driver);
    let db;
    try {
      // The lowest CPU priority for this thread: Linux keeps a nice value per thread (elsewhere it is the process's).
      if (process.platform === 'linux') try { require('node:os').setPriority(19); } catch {}
      db = new Database(workerData.file, { readonly: true, fileMustExist: true, nativeBinding: workerData.nativeBinding });
      db.pragma('cache_size = ${CHECK_CACHE_PAGES}');
      const rows = db.pragma('quick_check(20)');
      parentPort.postMessage(rows.map((row) => String(row.quick_check)).filter((text) => text !== 'ok'));
    } catch (error) {
      parentPort.postMessage([String(error && error.message ? error.message : error)]);
    } finally {
      if (db) db.close();
    }`;
  return new Promise((resolve, reject) => {
    const worker = startWorker(code, {
      eval: true,
      workerData: { file, driver, nativeBinding: nativeBindingForRuntime() },
    });
    worker.once('message', (problems: string[]) => resolve(problems));
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`The integrity check of ${file} ended with code ${code}.`));
    });
  });
}
