import type {
  AuditEntry,
  AuditFilter,
  AuditQuery,
  AuditStore,
  NewAuditEntry,
} from '../../../src-server/core/audit/audit-entry.js';
import { SqlAuditStore } from '../../../src-server/core/audit/sql/sql-audit-store.js';
import { createLogger } from '../../../src-server/core/logging/logger.js';
import { Database } from '../../../src-server/core/storage/database.js';
import type { EngineKind } from '../../../src-server/core/storage/engine-kind.js';
import { createTestDatabase } from '../../helpers/test-database.js';
import { tempDir } from '../../helpers/temp-dir.js';

export const DAY_MS = 86_400_000;
export const BASE_MS = Date.parse('2025-03-01T00:00:00.000Z');

/** A database of one engine (a temp data dir for SQLite, a fresh database on the test server for PostgreSQL). */
export class StoreFixture {
  private readonly opened: { store: AuditStore; database: Database }[] = [];

  private constructor(
    readonly engine: EngineKind,
    readonly dataDir: string,
    readonly connectionString: string | undefined,
    private readonly removeDir: () => Promise<void>,
  ) {}

  static async create(engine: EngineKind): Promise<StoreFixture> {
    const dir = await tempDir('gatehouse-audit-');
    return new StoreFixture(engine, dir.path, await createTestDatabase(engine), dir.remove);
  }

  async openDatabase(): Promise<Database> {
    return Database.open({
      dataDir: this.dataDir,
      connectionString: this.connectionString,
      logger: createLogger('silent'),
    });
  }

  /** The store over the fixture's database; `now` is the clock it stamps writes and removals with. */
  async openStore(now?: () => number): Promise<AuditStore> {
    const database = await this.openDatabase();
    const store = new SqlAuditStore(database, now);
    this.opened.push({ store, database });
    return store;
  }

  /** Closes a store and its database (what a restart does). */
  async closeStore(store: AuditStore): Promise<void> {
    const found = this.opened.find((opened) => opened.store === store);
    await store.close();
    await found?.database.close();
  }

  /** Empties the audit tables (property tests run many stores on one database). */
  async clear(): Promise<void> {
    const database = await this.openDatabase();
    try {
      for (const table of [
        'audit_entries',
        'audit_entries_removed',
        'audit_resources',
        'audit_day_counts',
        'audit_action_day_counts',
        'audit_user_day_counts',
        'audit_action_user_day_counts',
        'sequences',
      ] as const) {
        await database.db.deleteFrom(table).execute();
      }
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

export function entryAt(timeMs: number, overrides: Partial<NewAuditEntry> = {}): NewAuditEntry {
  return {
    actionName: 'Process.Deploy',
    userName: 'alice',
    timestamp: new Date(timeMs).toISOString(),
    parameters: { processId: 'p-1' },
    resources: [],
    category: 'general',
    ...overrides,
  };
}

/** The specification of `query`, written the obvious way. */
export function referenceQuery(
  entries: readonly AuditEntry[],
  query: AuditQuery,
): { ids: number[]; totalCount: number } {
  const matching = referenceFilter(entries, query);
  const start = (query.pageNumber - 1) * query.pageSize;
  return { ids: matching.slice(start, start + query.pageSize).map((e) => e.id), totalCount: matching.length };
}

export function referenceFilter(entries: readonly AuditEntry[], filter: AuditFilter): AuditEntry[] {
  return entries
    .filter((entry) => {
      const time = Date.parse(entry.timestamp);
      if (filter.startMs !== undefined && time < filter.startMs) return false;
      if (filter.endMs !== undefined && time >= filter.endMs) return false;
      if (
        filter.actionName !== undefined &&
        entry.actionName.toLowerCase() !== filter.actionName.toLowerCase()
      ) {
        return false;
      }
      if (filter.userName !== undefined && entry.userName.toLowerCase() !== filter.userName.toLowerCase())
        return false;
      if (filter.instance !== undefined && entry.instance !== filter.instance) return false;
      return true;
    })
    .sort((a, b) => Date.parse(b.timestamp) - Date.parse(a.timestamp) || b.id - a.id);
}

export async function allIds(store: AuditStore, filter: AuditFilter = {}): Promise<number[]> {
  const ids: number[] = [];
  for await (const entry of store.iterate(filter)) ids.push(entry.id);
  return ids;
}
