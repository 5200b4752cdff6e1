import pg from 'pg';
import type { CompiledQuery } from 'kysely';
import type {
  AuditEntry,
  AuditFilter,
  AuditQuery,
  AuditStore,
  NewAuditEntry,
} from '../../../src-server/core/audit/audit-entry.js';
import { SqlAuditStore } from '../../../src-server/core/audit/sql/sql-audit-store.js';
import type { Database } from '../../../src-server/core/storage/database.js';
import type { EngineKind } from '../../../src-server/core/storage/engine-kind.js';
import { StoreFixture as EngineStoreFixture, type StoreKind } from '../../helpers/store-fixture.js';

export const DAY_MS = 86_400_000;
export const BASE_MS = Date.parse('2025-03-01T00:00:00.000Z');

const AUDIT_STORES: StoreKind<AuditStore> = {
  prefix: 'gatehouse-audit-',
  tables: [
    'audit_entries',
    'audit_entries_removed',
    'audit_resources',
    'audit_day_counts',
    'audit_hour_counts',
    'audit_action_hour_counts',
    'audit_user_hour_counts',
    'audit_action_day_counts',
    'audit_user_day_counts',
    'audit_action_user_day_counts',
    'sequences',
  ],
  open: (database, now) => new SqlAuditStore(database, now),
};

/** Audit stores over a database of one engine. */
export type StoreFixture = EngineStoreFixture<AuditStore>;
export const StoreFixture = {
  create: (engine: EngineKind): Promise<StoreFixture> => EngineStoreFixture.create(AUDIT_STORES, engine),
};

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

/** A reader over the database that keeps every statement it sends, as the store's code sent it. */
export function recordingReader(database: Database) {
  const sent: CompiledQuery[] = [];
  const db = database.db;
  const reader = {
    selectFrom: db.selectFrom.bind(db),
    getExecutor: () => db.getExecutor(),
    executeQuery: <R>(query: CompiledQuery<R>) => {
      sent.push(query);
      return db.executeQuery(query);
    },
  };
  return { reader, sent };
}

/** PostgreSQL's plan of a statement as sent (EXPLAIN's JSON, with `options` such as `analyze`), its root node. */
export async function explainPlan(
  connectionString: string | undefined,
  statement: CompiledQuery,
  options = '',
): Promise<Record<string, unknown>> {
  // As Gatehouse's connections run (postgres-engine.ts).
  const client = new pg.Client({ connectionString, options: '-c jit=off' });
  await client.connect();
  try {
    const explained = await client.query<{ 'QUERY PLAN': [{ Plan: Record<string, unknown> }] }>(
      `explain (${options ? `${options}, ` : ''}format json) ${statement.sql}`,
      [...statement.parameters],
    );
    return explained.rows[0]!['QUERY PLAN'][0].Plan;
  } finally {
    await client.end();
  }
}

/**
 * A PostgreSQL audit store holding `batch`, vacuumed and analyzed as autovacuum leaves tables of this size before
 * long (statistics and the visibility map, which the plans under test depend on), with its entries as stored.
 */
export async function analyzedPostgresTrail(batch: readonly NewAuditEntry[]) {
  const fixture = await StoreFixture.create('postgres');
  const store = await fixture.openStore();
  const database = await fixture.openDatabase();
  await store.importEntries(batch);
  const entries: AuditEntry[] = [];
  for await (const entry of store.iterate({})) entries.push(entry);
  const client = new pg.Client({ connectionString: fixture.connectionString });
  await client.connect();
  try {
    await client.query('vacuum analyze');
  } finally {
    await client.end();
  }
  const dispose = async () => {
    await database.close();
    await fixture.dispose();
  };
  return { fixture, store, database, entries, dispose };
}
export type AnalyzedPostgresTrail = Awaited<ReturnType<typeof analyzedPostgresTrail>>;
