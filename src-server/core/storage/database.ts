import { join } from 'node:path';
import {
  Kysely,
  Migrator,
  sql,
  type Compilable,
  type Insertable,
  type SelectQueryBuilder,
  type Transaction,
} from 'kysely';
import type { Database as SqliteHandle } from 'better-sqlite3';
import type { Logger } from '../logging/logger.js';
import type { EngineKind } from './engine-kind.js';
import { migrationsFor } from './migrations/index.js';
import { restoreDeferredIndexes } from './deferred-indexes.js';
import { openPostgresEngine } from './postgres-engine.js';
import type { GatehouseSchema } from './schema.js';
import {
  ChangeFeed,
  changeText,
  CHANGE_CHANNEL,
  type Change,
  type ChangeFeedHandlers,
} from './change-feed.js';
import {
  checkSqliteFile,
  nativeBindingForRuntime,
  openSqliteEngine,
  SQLITE_FILE_NAME,
} from './sqlite-engine.js';
import { SqliteOffThreadSync } from './sqlite-off-thread-sync.js';
import { DatabaseOpenError } from './storage-errors.js';
import { ALWAYS_HELD, PostgresJobLease, type JobLease } from './job-lease.js';
import { translatingDialect } from './translating-dialect.js';
import { BulkWrites } from './bulk-writes.js';
import { reserveIds } from './sequences.js';
import { WriteTurn } from './write-turn.js';

const MIGRATION_TABLE = 'schema_migrations';

export type Db = Kysely<GatehouseSchema>;
export type Tx = Transaction<GatehouseSchema>;

export interface OpenDatabaseOptions {
  /** The data dir: the SQLite file lives in it. */
  dataDir: string;
  /** `postgres://…` (setting `ConnectionStrings:Gatehouse`): the team's server instead of the file. */
  connectionString?: string;
  logger: Logger;
  /** Open an existing SQLite file read-only and skip migrations (`gatehouse token` beside a running server). */
  readonly?: boolean;
}

/**
 * The Gatehouse database: one Kysely instance over SQLite (embedded default, a file in the data dir) or
 * PostgreSQL (team mode), migrated to the current schema when opened. Engine differences that a query builder
 * can't hide (id counters, row locks) are methods here, so the stores hold no dialect-specific SQL.
 */
export class Database {
  private closing: Promise<void> | undefined;

  private constructor(
    readonly kind: EngineKind,
    readonly db: Db,
    /** The file, or the server without credentials. */
    readonly location: string,
    private readonly sqliteHandle: SqliteHandle | undefined,
    /** The engine's error translation, for statements run on the SQLite handle directly. */
    private readonly translate: (error: unknown) => unknown,
    /** Notifications between instances (PostgreSQL only: a SQLite file has one instance). */
    private readonly feed?: ChangeFeed,
    /** PostgreSQL's, for the sessions of its own a feature needs (the background-jobs lease). */
    private readonly connectionString?: string,
    /** A writable SQLite file's: commits reach the disk off the main thread. */
    private readonly sqliteSync?: SqliteOffThreadSync,
  ) {
    this.bulk = new BulkWrites(db, sqliteHandle, translate);
    this.writeTurn = sqliteSync ? new WriteTurn() : undefined;
  }

  private readonly bulk: BulkWrites;

  static async open(options: OpenDatabaseOptions): Promise<Database> {
    const connectionString = options.connectionString?.trim();
    let database: Database;
    if (connectionString) {
      if (!/^postgres(ql)?:\/\//i.test(connectionString)) {
        throw new DatabaseOpenError(
          'ConnectionStrings:Gatehouse must be a postgres:// or postgresql:// URL.',
        );
      }
      const engine = await openPostgresEngine(connectionString, options.logger);
      const db = new Kysely<GatehouseSchema>({
        dialect: translatingDialect(engine.dialect, engine.translate),
      });
      const feed = new ChangeFeed(connectionString, engine.location, options.logger);
      database = new Database(
        'postgres',
        db,
        engine.location,
        undefined,
        engine.translate,
        feed,
        connectionString,
      );
    } else {
      const file = join(options.dataDir, SQLITE_FILE_NAME);
      const engine = await openSqliteEngine(file, { readonly: options.readonly });
      const db = new Kysely<GatehouseSchema>({
        dialect: translatingDialect(engine.dialect, engine.translate),
      });
      let sync: SqliteOffThreadSync | undefined;
      if (!options.readonly) {
        engine.handle.pragma('wal_autocheckpoint = 0');
        // A WAL started over after a checkpoint is cut back to this, so its size tells how much awaits one.
        engine.handle.pragma('journal_size_limit = 4194304');
        sync = new SqliteOffThreadSync(file, nativeBindingForRuntime());
      }
      database = new Database(
        'sqlite',
        db,
        file,
        engine.handle,
        engine.translate,
        undefined,
        undefined,
        sync,
      );
    }
    if (options.readonly) return database;
    try {
      await database.migrate();
      // An offline import that died between dropping indexes and building them again left them to the next open.
      await restoreDeferredIndexes(database);
    } catch (error) {
      await database.close();
      throw error;
    }
    return database;
  }

  private async migrate(): Promise<void> {
    const provider = migrationsFor(this.kind);
    if (await this.hasRun(Object.keys(await provider.getMigrations()))) return;
    const migrator = new Migrator({
      db: this.db,
      provider,
      migrationTableName: MIGRATION_TABLE,
      migrationLockTableName: 'schema_migrations_lock',
      // The names are numbered ASCII: the default, localeCompare, set up ICU's collator at every start (~9 ms).
      nameComparator: (a, b) => (a < b ? -1 : a > b ? 1 : 0),
    });
    const { error, results } = await migrator.migrateToLatest();
    if (error) {
      const failed = results?.find((result) => result.status === 'Error')?.migrationName;
      const newer = /corrupted migrations|previously executed migration .* is missing/i.test(
        (error as Error).message,
      );
      throw new DatabaseOpenError(
        newer
          ? `The database at ${this.location} was written by a newer Gatehouse (its schema has migrations this version does not know). Upgrade Gatehouse.`
          : `The database at ${this.location} could not be migrated${failed ? ` (${failed})` : ''}: ${(error as Error).message}`,
        { cause: error },
      );
    }
  }

  /**
   * Whether the database ran exactly these migrations, read in one query: the Migrator checks the same before it
   * does nothing, in a dozen statements (~20 ms of CPU of each start). Anything else (a new file, a migration to
   * run, one this version does not know, a file that can't be read) is the Migrator's to apply or report.
   */
  private async hasRun(names: string[]): Promise<boolean> {
    const ran = await sql<{ name: string }>`select name from ${sql.table(MIGRATION_TABLE)}`
      .execute(this.db)
      .then(
        ({ rows }) => rows.map((row) => row.name),
        () => undefined,
      );
    if (ran?.length !== names.length) return false;
    const known = new Set(names);
    return ran.every((name) => known.has(name));
  }

  /**
   * Runs `work` in one transaction; on PostgreSQL at READ COMMITTED, with the row locks it takes. A commit is on
   * disk when it returns (SQLite fsyncs its WAL, PostgreSQL waits for its WAL flush). `relaxed` commits without
   * waiting for the disk: what survives a crash of Gatehouse, not of the machine or the database server (API
   * monitoring, whose recorder loses its buffer in a crash anyway).
   */
  async transaction<T>(work: (trx: Tx) => Promise<T>, options: { relaxed?: boolean } = {}): Promise<T> {
    if (!this.writeTurn) return this.transactionInTurn(work, options);
    await this.writeTurn.acquire();
    try {
      return await this.transactionInTurn(work, options);
    } finally {
      this.writeTurn.release();
    }
  }

  /**
   * On a writable SQLite file, the main thread's turn at the write lock against API monitoring's writer thread
   * (write-turn.ts): `transaction` takes it first.
   */
  readonly writeTurn: WriteTurn | undefined;

  private async transactionInTurn<T>(
    work: (trx: Tx) => Promise<T>,
    options: { relaxed?: boolean },
  ): Promise<T> {
    if (!options.relaxed) {
      if (!this.sqliteSync) return this.db.transaction().execute(work);
      // Committed without the fsync, then flushed on the thread pool (sqlite-off-thread-sync.ts).
      const committed = await this.sqliteTransaction(work);
      await this.sqliteSync.sync();
      return committed;
    }
    if (this.kind === 'postgres') {
      return this.db.transaction().execute(async (trx) => {
        await sql`set local synchronous_commit = off`.execute(trx);
        return work(trx);
      });
    }
    return this.sqliteTransaction(work);
  }

  /** A transaction committed with `synchronous=NORMAL`: written to the WAL, not yet flushed to the disk. */
  private sqliteTransaction<T>(work: (trx: Tx) => Promise<T>): Promise<T> {
    // SQLite's setting belongs to the connection (there is one): set for this commit, restored right after.
    return this.db.connection().execute(async (connection) => {
      await sql`pragma synchronous = normal`.execute(connection);
      try {
        return await connection.transaction().execute(work);
      } finally {
        await sql`pragma synchronous = full`.execute(connection);
      }
    });
  }

  /**
   * Reserves `count` ids of a sequence and returns the first. Inside a transaction, the sequence's row stays
   * locked until it ends, so on PostgreSQL concurrent writers (of several instances) commit in id order.
   */
  reserveIds(trx: Tx, sequence: string, count: number): Promise<number> {
    return reserveIds(this.bulk, trx, sequence, count);
  }

  /** Makes ids of a sequence start above `highest` (after rows were written with ids of their own). */
  async raiseSequence(trx: Tx, sequence: string, highest: number): Promise<void> {
    await trx
      .insertInto('sequences')
      .values({ name: sequence, value: highest })
      .onConflict((conflict) =>
        conflict.column('name').doUpdateSet({
          value: sql<number>`case when sequences.value > excluded.value then sequences.value else excluded.value end`,
        }),
      )
      .execute();
  }

  /** Many rows in the transaction (see `BulkWrites.insert`). */
  bulkInsert<T extends keyof GatehouseSchema>(
    trx: Tx,
    table: T,
    rows: readonly Insertable<GatehouseSchema[T]>[],
  ): Promise<void> {
    return this.bulk.insert(trx, table, rows);
  }

  /** Rows given as one flat array of values (see `BulkWrites.insertValues`). */
  insertValues<T extends keyof GatehouseSchema>(
    trx: Tx,
    table: T,
    columns: readonly (keyof GatehouseSchema[T] & string)[],
    values: readonly unknown[],
    rowCount: number,
    shared = 0,
  ): Promise<void> {
    return this.bulk.insertValues(trx, table, columns, values, rowCount, shared);
  }

  /** Counters added to the rows with the same key (see `BulkWrites.increment`). */
  bulkIncrement<T extends keyof GatehouseSchema>(
    trx: Tx,
    table: T,
    keyColumns: readonly string[],
    rows: readonly Insertable<GatehouseSchema[T]>[],
  ): Promise<void> {
    return this.bulk.increment(trx, table, keyColumns, rows);
  }

  /** Inserts rows or overwrites those with the same key (see `BulkWrites.upsert`). */
  upsert<T extends keyof GatehouseSchema>(
    trx: Tx,
    table: T,
    keyColumns: readonly string[],
    rows: readonly Insertable<GatehouseSchema[T]>[],
  ): Promise<void> {
    return this.bulk.upsert(trx, table, keyColumns, rows);
  }

  /** SQLite only: one statement run once per row of flat values (see `BulkWrites.runEachOnSqlite`). */
  runEachOnSqlite(text: string, width: number, values: readonly unknown[], rowCount: number): void {
    this.bulk.runEachOnSqlite(text, width, values, rowCount);
  }

  /** A query of one fixed shape, compiled once (see `BulkWrites.runCompiled`). */
  runCompiled<R>(
    trx: Tx,
    key: string,
    build: () => Compilable<R>,
    parameters: readonly unknown[],
  ): Promise<R[]> {
    return this.bulk.runCompiled(trx, key, build, parameters);
  }

  /**
   * Makes writers of `name` take turns until the transaction ends: on PostgreSQL a transaction-level advisory
   * lock (instances share the server); SQLite has one writer at a time already.
   */
  async lockExclusively(trx: Tx, name: string): Promise<void> {
    if (this.kind !== 'postgres') return;
    await sql`select pg_advisory_xact_lock(hashtext(${`gatehouse.${name}`}))`.execute(trx);
  }

  /** `select … for update` on PostgreSQL; SQLite has one writer at a time, so a plain select there. */
  forUpdate<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O> {
    return this.kind === 'postgres' ? query.forUpdate() : query;
  }

  /**
   * Checks the SQLite file in the background (a worker thread): the problems found, empty when it is sound or on
   * PostgreSQL (which checks its own pages).
   */
  async checkIntegrity(): Promise<string[]> {
    if (this.kind !== 'sqlite') return [];
    return checkSqliteFile(this.location);
  }

  /** One round trip (`/readyz`): throws when the server, or the file, does not answer. */
  async ping(): Promise<void> {
    await sql`select 1`.execute(this.db);
  }

  /** The better-sqlite3 handle (backups, integrity checks); undefined on PostgreSQL. */
  get sqlite(): SqliteHandle | undefined {
    return this.sqliteHandle;
  }

  /**
   * Tells every instance on this database, once the transaction commits, that something changed (PostgreSQL's
   * NOTIFY; nothing to tell on SQLite).
   */
  async notify(trx: Tx, change: Change): Promise<void> {
    if (this.kind !== 'postgres') return;
    await sql`select pg_notify(${CHANGE_CHANNEL}, ${changeText(change)})`.execute(trx);
  }

  /** Hears the changes other instances (and this one) commit; never called on SQLite. */
  subscribe(handlers: ChangeFeedHandlers): () => void {
    return this.feed?.subscribe(handlers) ?? (() => undefined);
  }

  /**
   * The lease on the background jobs among the instances on this database, asking for it from now on (PostgreSQL);
   * SQLite's single instance always holds it. The caller closes it.
   */
  async jobLease(instance: string, logger: Logger): Promise<JobLease> {
    if (this.kind !== 'postgres' || !this.connectionString) return ALWAYS_HELD;
    const lease = new PostgresJobLease(this.connectionString, instance, logger);
    await lease.start();
    return lease;
  }

  private readonly closers: (() => Promise<void>)[] = [];

  /**
   * Runs `close` when the database closes, before its connection does: for what a feature keeps open on the same
   * database for as long as it is open (API monitoring's writer thread, with its own connection to the file).
   */
  closeWith(close: () => Promise<void>): void {
    this.closers.push(close);
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      for (const close of this.closers.splice(0)) await close();
      await this.feed?.close();
      // First: the main connection, closing last, checkpoints the WAL into the file and removes it.
      await this.sqliteSync?.close();
      await this.db.destroy();
    })();
    return this.closing;
  }
}
