import { createLogger } from '../../src-server/core/logging/logger.js';
import { Database } from '../../src-server/core/storage/database.js';
import type { EngineKind } from '../../src-server/core/storage/engine-kind.js';
import type { GatehouseSchema } from '../../src-server/core/storage/schema.js';
import { createTestDatabase } from './test-database.js';
import { tempDir } from './temp-dir.js';

interface Closable {
  close: () => Promise<void>;
}

export interface StoreKind<S extends Closable> {
  /** The temp dir's name prefix. */
  prefix: string;
  /** The tables `clear()` empties. */
  tables: readonly (keyof GatehouseSchema)[];
  /** The store over a database; `now` is the clock it stamps writes and removals with. */
  open: (database: Database, now?: () => number) => S;
}

/**
 * A database of one engine (a temp data dir for SQLite, a fresh database on the test server for PostgreSQL) and
 * the stores opened over it; `dispose()` closes them and removes the dir.
 */
export class StoreFixture<S extends Closable> {
  private readonly opened: { store: S; database: Database }[] = [];

  private constructor(
    private readonly kind: StoreKind<S>,
    readonly engine: EngineKind,
    readonly dataDir: string,
    readonly connectionString: string | undefined,
    private readonly removeDir: () => Promise<void>,
  ) {}

  static async create<S extends Closable>(kind: StoreKind<S>, engine: EngineKind): Promise<StoreFixture<S>> {
    const dir = await tempDir(kind.prefix);
    return new StoreFixture(kind, engine, dir.path, await createTestDatabase(engine), dir.remove);
  }

  openDatabase(): Promise<Database> {
    return Database.open({
      dataDir: this.dataDir,
      connectionString: this.connectionString,
      logger: createLogger('silent'),
    });
  }

  /** The store over the fixture's database; `now` is the clock it stamps writes and removals with. */
  async openStore(now?: () => number): Promise<S> {
    const database = await this.openDatabase();
    const store = this.kind.open(database, now);
    this.opened.push({ store, database });
    return store;
  }

  /** Closes a store and its database (what a restart does). */
  async closeStore(store: S): Promise<void> {
    const found = this.opened.find((opened) => opened.store === store);
    await store.close();
    await found?.database.close();
  }

  /** Empties the store's tables (property tests run many stores on one database). */
  async clear(): Promise<void> {
    const database = await this.openDatabase();
    try {
      for (const table of this.kind.tables) await database.db.deleteFrom(table).execute();
    } finally {
      await database.close();
    }
  }

  async dispose(): Promise<void> {
    try {
      for (const { store, database } of this.opened) {
        await store.close();
        await database.close();
      }
    } finally {
      await this.removeDir();
    }
  }
}
