import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ALL_TENANTS, OWN_TENANT } from '../../../src-server/core/audit/audit-tenant.js';
import { migrationsFor } from '../../../src-server/core/storage/migrations/index.js';
import { SqlAuditStore } from '../../../src-server/core/audit/sql/sql-audit-store.js';
import { rollBackAudit } from '../../../src-server/core/audit/sql/audit-rollback.js';
import { ENGINES } from '../../helpers/test-database.js';
import { allIds, BASE_MS, DAY_MS, entryAt, StoreFixture } from './helpers.js';

describe.each(ENGINES)('tenants of the audit trail on %s', (engine) => {
  let fixture: StoreFixture;
  beforeEach(async () => {
    fixture = await StoreFixture.create(engine);
  });
  afterEach(async () => {
    await fixture.dispose();
  });

  const entries = Array.from({ length: 40 }, (_, i) =>
    entryAt(BASE_MS + i * (DAY_MS / 8), {
      actionName: i % 2 === 0 ? 'Process.Deploy' : 'Agent.Started',
      userName: i % 3 === 0 ? 'alice' : 'bob',
      parameters: { i },
    }),
  );

  it('keeps each tenant apart: lists, counts, facets, de-duplication', async () => {
    const store = await fixture.openStore();
    await store.append(entryAt(BASE_MS + 5, { actionName: 'TenantSettings.Modify', userName: 'admin' }));
    expect(await store.importEntries(entries, undefined, { tenant: 'acme' })).toEqual({
      read: 40,
      added: 40,
      duplicates: 0,
    });
    // The same content in another tenant is not a duplicate; again in the same tenant it is.
    expect(await store.importEntries(entries.slice(0, 10), undefined, { tenant: 'globex' })).toMatchObject({
      added: 10,
    });
    expect(await store.importEntries(entries, undefined, { tenant: 'acme' })).toMatchObject({
      added: 0,
      duplicates: 40,
    });

    const own = await store.query({ pageNumber: 1, pageSize: 200 });
    expect(own.totalCount).toBe(1);
    expect(own.items[0]).not.toHaveProperty('tenant');
    const acme = await store.query({ tenant: 'acme', pageNumber: 1, pageSize: 200 });
    expect(acme.totalCount).toBe(40);
    expect(acme.items.every((item) => item.tenant === 'acme')).toBe(true);
    // Counts from the day tables agree with the rows on every filter, over whole and partial days.
    const filtered = await store.query({
      tenant: 'acme',
      actionName: 'process.deploy',
      userName: 'ALICE',
      startMs: BASE_MS + 1000,
      endMs: BASE_MS + 4 * DAY_MS + 7,
      pageNumber: 1,
      pageSize: 200,
    });
    const expected = entries.filter((entry, i) => {
      const t = Date.parse(entry.timestamp);
      return i % 2 === 0 && i % 3 === 0 && t >= BASE_MS + 1000 && t < BASE_MS + 4 * DAY_MS + 7;
    });
    expect(filtered.totalCount).toBe(expected.length);
    expect(filtered.items.map((item) => item.parameters)).toEqual(
      expected.reverse().map((e) => e.parameters),
    );

    const all = await store.query({ tenant: ALL_TENANTS, pageNumber: 2, pageSize: 20 });
    expect(all.totalCount).toBe(51);
    expect(all.items).toHaveLength(20);
    expect(await allIds(store, { tenant: ALL_TENANTS })).toHaveLength(51);
    expect(await allIds(store, { tenant: 'globex' })).toHaveLength(10);

    expect(await store.facets()).toEqual({ actionNames: ['TenantSettings.Modify'], userNames: ['admin'] });
    expect(await store.facets('globex')).toEqual({
      actionNames: ['Agent.Started', 'Process.Deploy'],
      userNames: ['alice', 'bob'],
    });
    expect((await store.facets(ALL_TENANTS)).userNames).toEqual(['admin', 'alice', 'bob']);

    expect(await store.tenants()).toEqual([
      { name: 'acme', entries: 40, newest: entries.at(-1)!.timestamp },
      { name: 'gatehouse', entries: 1, newest: new Date(BASE_MS + 5).toISOString() },
      { name: 'globex', entries: 10, newest: entries[9]!.timestamp },
    ]);
  });

  it('lists one action or user of every tenant in list order, and counts a search per tenant', async () => {
    const store = await fixture.openStore();
    // Interleaved in time: acme's entries at even steps, globex's at odd ones.
    await store.importEntries(entries, undefined, { tenant: 'acme' });
    const shifted = entries.map((entry, i) =>
      entryAt(Date.parse(entry.timestamp) + DAY_MS / 16, {
        actionName: entry.actionName,
        userName: entry.userName,
        parameters: { i, word: i % 4 === 0 ? 'needle' : 'hay' },
      }),
    );
    await store.importEntries(shifted, undefined, { tenant: 'globex' });

    const byTime = (a: { timestamp: string; id: number }, b: { timestamp: string; id: number }) =>
      Date.parse(b.timestamp) - Date.parse(a.timestamp) || b.id - a.id;
    for (const filter of [{ actionName: 'process.deploy' }, { userName: 'ALICE' }]) {
      const pages = [];
      for (const pageNumber of [1, 2, 3]) {
        const page = await store.query({ tenant: ALL_TENANTS, ...filter, pageNumber, pageSize: 7 });
        pages.push(...page.items);
      }
      const whole = await store.query({ tenant: ALL_TENANTS, ...filter, pageNumber: 1, pageSize: 200 });
      expect(pages).toEqual(whole.items.slice(0, 21));
      expect(whole.items.map((item) => item.tenant)).toContain('globex');
      expect(whole.items.map((item) => item.tenant)).toContain('acme');
      expect([...whole.items].sort(byTime)).toEqual(whole.items);
      expect(await allIds(store, { tenant: ALL_TENANTS, ...filter })).toEqual(
        whole.items.map((item) => item.id),
      );
      const seek = await store.seek({ tenant: ALL_TENANTS, ...filter }, 5);
      expect(seek.items).toEqual(whole.items.slice(0, 5));
    }

    // Only globex's parameters hold the word: its count, none for acme, all of them for every tenant.
    const needles = shifted.filter((_, i) => i % 4 === 0).length;
    for (const [tenant, count] of [
      ['globex', needles],
      ['acme', 0],
      [ALL_TENANTS, needles],
    ] as const) {
      const found = await store.query({ tenant, search: 'needle', pageNumber: 2, pageSize: 4 });
      expect(found.totalCount, tenant).toBe(count);
      expect(found.items).toHaveLength(Math.min(4, Math.max(0, count - 4)));
    }
  });

  it('lists Gatehouse’s own trail among the tenants even when empty', async () => {
    const store = await fixture.openStore();
    expect(await store.tenants()).toEqual([{ name: OWN_TENANT, entries: 0 }]);
  });

  it('applies the agent window per tenant and keeps counts right through retention and a rollback', async () => {
    let now = BASE_MS + 10 * DAY_MS;
    const store = await fixture.openStore(() => now);
    const agent = (t: number) =>
      entryAt(BASE_MS + t, { category: 'agent', agentGroup: { id: 'g1', name: 'G' }, parameters: { t } });
    await store.importEntries([agent(1), agent(2), agent(3)], undefined, { tenant: 'acme' });
    await store.importEntries([agent(1), agent(2)], undefined, { tenant: 'globex' });
    const imported = now;
    now += 10_000;
    const { removed } = await store.applyRetention({
      now,
      maxAgeMs: 365 * DAY_MS,
      agentWindow: 2,
      isResourceLive: () => true,
    });
    expect(removed).toBe(1);
    expect((await store.query({ tenant: 'acme', pageNumber: 1, pageSize: 10 })).totalCount).toBe(2);
    expect((await store.query({ tenant: 'globex', pageNumber: 1, pageSize: 10 })).totalCount).toBe(2);

    // A restore to before the removal brings the entry back into its own tenant, counts included.
    await store.flush();
    const database = await fixture.openDatabase();
    try {
      await rollBackAudit(database, imported + 5_000);
    } finally {
      await database.close();
    }
    const reopened = await fixture.openStore(() => now);
    expect((await reopened.query({ tenant: 'acme', pageNumber: 1, pageSize: 10 })).totalCount).toBe(3);
    expect((await reopened.query({ tenant: 'globex', pageNumber: 1, pageSize: 10 })).totalCount).toBe(2);
    expect((await reopened.query({ pageNumber: 1, pageSize: 10 })).totalCount).toBe(0);
  });
});

describe.each(ENGINES)('a database from before tenants on %s', (engine) => {
  it('keeps its entries and counts, as Gatehouse’s own trail', async () => {
    const fixture = await StoreFixture.create(engine);
    try {
      const old = new Kysely<Record<string, Record<string, unknown>>>({
        dialect: fixture.connectionString
          ? new PostgresDialect({ pool: new pg.Pool({ connectionString: fixture.connectionString }) })
          : new SqliteDialect({ database: new BetterSqlite3(join(fixture.dataDir, 'gatehouse.db')) }),
      });
      const migrator = new Migrator({
        db: old,
        provider: migrationsFor(engine),
        migrationTableName: 'schema_migrations',
        migrationLockTableName: 'schema_migrations_lock',
      });
      expect((await migrator.migrateTo('0002-config-records')).error).toBeUndefined();
      const day = Math.floor(BASE_MS / DAY_MS);
      const json = JSON.stringify({
        actionName: 'Process.Deploy',
        userName: 'alice',
        timestamp: new Date(BASE_MS).toISOString(),
        parameters: {},
        resources: [],
        category: 'general',
      });
      await old
        .insertInto('audit_entries')
        .values({
          id: 7,
          time_ms: BASE_MS,
          action_key: 'process.deploy',
          user_key: 'alice',
          category: 'general',
          agent_group_id: null,
          content_hash: '0123456789abcdef',
          entry: json,
          recorded_at: BASE_MS,
        })
        .execute();
      await old.insertInto('audit_day_counts').values({ day, n: 1 }).execute();
      await old
        .insertInto('audit_action_day_counts')
        .values({ action_key: 'process.deploy', day, action_name: 'Process.Deploy', n: 1 })
        .execute();
      await old
        .insertInto('audit_user_day_counts')
        .values({ user_key: 'alice', day, user_name: 'alice', n: 1 })
        .execute();
      await old
        .insertInto('audit_action_user_day_counts')
        .values({ action_key: 'process.deploy', user_key: 'alice', day, n: 1 })
        .execute();
      await old.destroy();

      const database = await fixture.openDatabase();
      const store = new SqlAuditStore(database);
      try {
        const page = await store.query({
          actionName: 'Process.Deploy',
          userName: 'alice',
          pageNumber: 1,
          pageSize: 5,
        });
        expect(page.totalCount).toBe(1);
        expect(page.items[0]).toMatchObject({ id: 7, actionName: 'Process.Deploy' });
        expect(await store.tenants()).toEqual([
          { name: OWN_TENANT, entries: 1, newest: new Date(BASE_MS).toISOString() },
        ]);
        expect(await store.facets()).toEqual({ actionNames: ['Process.Deploy'], userNames: ['alice'] });
      } finally {
        await store.close();
        await database.close();
      }
    } finally {
      await fixture.dispose();
    }
  });
});
