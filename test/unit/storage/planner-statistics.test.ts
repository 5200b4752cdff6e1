import { afterEach, describe, expect, it } from 'vitest';
import { filteredEntries } from '../../../src-server/core/audit/sql/audit-filter-sql.js';
import { storedContentKeys } from '../../../src-server/core/audit/sql/audit-import.js';
import type { AuditFilter } from '../../../src-server/core/audit/audit-entry.js';
import { createLogger } from '../../../src-server/core/logging/logger.js';
import { Database } from '../../../src-server/core/storage/database.js';
import { AUDIT_ENTRY_STATISTICS } from '../../../src-server/core/storage/migrations/0025-audit-action-index-user.js';
import { MONITORING_RECORD_STATISTICS } from '../../../src-server/core/storage/migrations/0014-monitoring-write-cost.js';
import { filteredRecords } from '../../../src-server/core/monitoring/sql/monitoring-filter.js';
import type { MonitoringFilter } from '../../../src-server/core/monitoring/monitoring-store.js';
import { tempDir } from '../../helpers/temp-dir.js';

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

/** SQLite's plan of a list page: what `query` runs for the filter. */
function planOf(database: Database, filter: AuditFilter): string[] {
  const compiled = filteredEntries(database.db, { ...filter, engine: 'sqlite' })
    .select(['id', 'entry', 'tenant'])
    .orderBy('time_ms', 'desc')
    .orderBy('id', 'desc')
    .limit(100)
    .compile();
  return database
    .sqlite!.prepare<unknown[], { detail: string }>(`explain query plan ${compiled.sql}`)
    .all(...compiled.parameters)
    .map((row) => row.detail);
}

const WEEK = { startMs: Date.UTC(2026, 0, 1), endMs: Date.UTC(2026, 0, 8) };

describe('SQLite planner statistics of audit_entries', () => {
  it('has a fixed statistics row for every index of audit_entries', async () => {
    const database = await openSqlite();
    const indexes = database
      .sqlite!.prepare<[], { name: string }>(`select name from pragma_index_list('audit_entries')`)
      .all()
      .map((row) => row.name)
      .sort();
    const stats = database
      .sqlite!.prepare<[], { idx: string; stat: string }>(
        `select idx, stat from sqlite_stat1 where tbl = 'audit_entries'`,
      )
      .all();
    expect(stats.map((row) => row.idx).sort()).toEqual(indexes);
    expect(Object.keys(AUDIT_ENTRY_STATISTICS).sort()).toEqual(indexes);
    // One count per column of the index, after the row count.
    for (const { idx, stat } of stats) {
      const columns = database.sqlite!.prepare(`select * from pragma_index_info(?)`).all(idx).length;
      expect(stat.split(' '), idx).toHaveLength(columns + 1);
    }
  });

  it.each<[string, AuditFilter, string]>([
    ['no filter', {}, 'audit_entries_by_tenant (tenant=?)'],
    ['a time range', WEEK, 'audit_entries_by_tenant (tenant=? AND time_ms>? AND time_ms<?)'],
    ['one action', { actionName: 'a' }, 'audit_entries_by_tenant_action (tenant=? AND action_key=?)'],
    [
      'one action in a time range',
      { actionName: 'a', ...WEEK },
      'audit_entries_by_tenant_action (tenant=? AND action_key=? AND time_ms>? AND time_ms<?)',
    ],
    ['one user', { userName: 'u' }, 'audit_entries_by_tenant_user (tenant=? AND user_key=?)'],
    [
      'action, user and time range',
      { actionName: 'a', userName: 'u', ...WEEK },
      'audit_entries_by_tenant_user (tenant=? AND user_key=? AND time_ms>? AND time_ms<?)',
    ],
  ])(
    'reads a page of %s through the index that leads with its equalities, in order',
    async (_, filter, index) => {
      const database = await openSqlite();
      const plan = planOf(database, filter);
      expect(plan).toEqual([`SEARCH audit_entries USING INDEX ${index}`]);
    },
  );

  it.each<[string, boolean, string]>([
    [
      'the user index',
      false,
      'audit_entries_by_tenant_user (tenant=? AND user_key=? AND time_ms>? AND time_ms<?)',
    ],
    [
      'the action index',
      true,
      'audit_entries_by_tenant_action (tenant=? AND action_key=? AND time_ms>? AND time_ms<?)',
    ],
  ])(
    'counts an action and a user through %s alone, the other name tested in it',
    async (_, actionIndexFirst, index) => {
      const database = await openSqlite();
      const filter = { actionName: 'a', userName: 'u', ...WEEK, engine: 'sqlite' as const, actionIndexFirst };
      const compiled = filteredEntries(database.db, filter)
        .select((eb) => eb.fn.countAll().as('n'))
        .compile();
      const plan = database
        .sqlite!.prepare<unknown[], { detail: string }>(`explain query plan ${compiled.sql}`)
        .all(...compiled.parameters)
        .map((row) => row.detail);
      expect(plan).toEqual([`SEARCH audit_entries USING COVERING INDEX ${index}`]);
    },
  );

  it('reads the entries of one instance through the instance index, which holds only entries naming one', async () => {
    const database = await openSqlite();
    expect(planOf(database, { instance: 'i-1', ...WEEK })).toEqual([
      'SEARCH audit_entries USING INDEX audit_entries_by_instance (instance=? AND time_ms>? AND time_ms<?)',
    ]);
    const partial = database
      .sqlite!.prepare<[], { partial: number }>(
        `select partial from pragma_index_list('audit_entries') where name = 'audit_entries_by_instance'`,
      )
      .get();
    expect(partial?.partial).toBe(1);
  });

  it("looks an import's duplicates up in the tenant index alone", async () => {
    const database = await openSqlite();
    const compiled = storedContentKeys(database.db, 'gatehouse', [1, 2, 3]).compile();
    const plan = database
      .sqlite!.prepare<unknown[], { detail: string }>(`explain query plan ${compiled.sql}`)
      .all(...compiled.parameters)
      .map((row) => row.detail);
    expect(plan).toEqual([
      'SEARCH audit_entries USING COVERING INDEX audit_entries_by_tenant (tenant=? AND time_ms=?)',
    ]);
  });
});

/** SQLite's plans of a monitoring list: the count, then the page (ids in the list's order). */
function monitoringPlans(database: Database, filter: MonitoringFilter): string[][] {
  const form = { seek: true };
  const count = filteredRecords(database.db, filter, form)
    .select((eb) => eb.fn.countAll().as('n'))
    .compile();
  const page = filteredRecords(database.db, filter, form)
    .select('id')
    .orderBy('time_ms', 'desc')
    .orderBy('id', 'desc')
    .limit(50)
    .compile();
  return [count, page].map((compiled) =>
    database
      .sqlite!.prepare<unknown[], { detail: string }>(`explain query plan ${compiled.sql}`)
      .all(...compiled.parameters)
      .map((row) => row.detail),
  );
}

describe('SQLite planner statistics of monitoring_records', () => {
  it('has a fixed statistics row for every index of monitoring_records', async () => {
    const database = await openSqlite();
    const indexes = database
      .sqlite!.prepare<[], { name: string }>(`select name from pragma_index_list('monitoring_records')`)
      .all()
      .map((row) => row.name)
      .sort();
    const stats = database
      .sqlite!.prepare<[], { idx: string; stat: string }>(
        `select idx, stat from sqlite_stat1 where tbl = 'monitoring_records'`,
      )
      .all();
    expect(stats.map((row) => row.idx).sort()).toEqual(indexes);
    expect(Object.keys(MONITORING_RECORD_STATISTICS).sort()).toEqual(indexes);
    for (const { idx, stat } of stats) {
      const columns = database
        .sqlite!.prepare(`select * from pragma_index_xinfo(?) where key = 1`)
        .all(idx).length;
      expect(stat.split(' '), idx).toHaveLength(columns + 1);
    }
  });

  it.each<[string, MonitoringFilter, string, string]>([
    [
      'a method and a minimum duration',
      { method: 'post', minDurationMs: 200 },
      'SEARCH monitoring_records USING COVERING INDEX monitoring_records_by_method (<expr>=?)',
      '',
    ],
    [
      'a method and a minimum duration in a time range',
      { method: 'post', minDurationMs: 200, ...WEEK },
      'SEARCH monitoring_records USING COVERING INDEX monitoring_records_by_method (<expr>=? AND time_ms>? AND time_ms<?)',
      '',
    ],
    [
      'a path prefix in a time range',
      { pathPrefix: '/orders/1', ...WEEK },
      'SEARCH monitoring_records USING INDEX monitoring_records_by_time (time_ms>? AND time_ms<?)',
      '',
    ],
    [
      'an outcome',
      { outcome: 'forwarded' },
      'SEARCH monitoring_records USING COVERING INDEX monitoring_records_by_outcome (outcome=?)',
      '',
    ],
    [
      'every filter at once',
      {
        ...WEEK,
        apiId: 'api-4',
        operation: 'GET /items/{id}',
        agentGroupId: 'group-1',
        status: { code: 200 },
        method: 'GET',
        minDurationMs: 10,
        pathPrefix: '/api4/',
        outcome: 'forwarded',
      },
      'SEARCH monitoring_records USING INDEX monitoring_records_by_api (api_id=? AND time_ms>? AND time_ms<?)',
      '',
    ],
  ])('counts %s on the index that holds its matches', async (_, filter, count, sort) => {
    const database = await openSqlite();
    const [countPlan, pagePlan] = monitoringPlans(database, filter);
    expect(countPlan).toEqual([count]);
    expect(pagePlan).toEqual(sort ? [count, sort] : [count]);
  });
});
