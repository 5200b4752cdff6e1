import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type {
  AuditResource,
  AuditStore,
  RetentionPolicy,
} from '../../../src-server/core/audit/audit-entry.js';
import { runRetention, scheduleRetention } from '../../../src-server/core/audit/retention-scheduler.js';
import { createLogger } from '../../../src-server/core/logging/logger.js';
import { allIds, BASE_MS, DAY_MS, entryAt, StoreFixture } from './helpers.js';
import { ENGINES } from '../../helpers/test-database.js';

const NOW = BASE_MS + 100 * DAY_MS;
const policy = (overrides: Partial<RetentionPolicy> = {}): RetentionPolicy => ({
  now: NOW,
  maxAgeMs: 60 * DAY_MS,
  agentWindow: 3,
  isResourceLive: () => true,
  ...overrides,
});
const api = (id: string): AuditResource => ({ type: 'Api', id, name: `API ${id}` });
const ageDays = (days: number): number => NOW - days * DAY_MS;

async function idsOf(store: AuditStore): Promise<number[]> {
  return (await allIds(store)).sort((a, b) => a - b);
}

describe.each(ENGINES)('retention on %s', (engine) => {
  let fixture: StoreFixture;
  beforeEach(async () => {
    fixture = await StoreFixture.create(engine);
  });
  afterEach(async () => {
    await fixture.dispose();
  });

  it('removes general entries older than the maximum age', async () => {
    const store = await fixture.openStore();
    await store.append(entryAt(ageDays(61))); // 1
    await store.append(entryAt(ageDays(60) - 1)); // 2: just past the limit
    await store.append(entryAt(ageDays(60))); // 3: exactly at the limit is kept
    await store.append(entryAt(ageDays(1))); // 4
    expect(await store.applyRetention(policy())).toEqual({ removed: 2 });
    expect(await idsOf(store)).toEqual([3, 4]);
    expect(await store.count()).toBe(2);
    expect(await store.applyRetention(policy())).toEqual({ removed: 0 });
  });

  it('stops before its next batch once its signal is aborted; the next run removes the rest', async () => {
    const store = await fixture.openStore();
    for (let day = 90; day < 93; day++) await store.append(entryAt(ageDays(day)));
    const stopping = new AbortController();
    stopping.abort();
    expect(await store.applyRetention(policy({ signal: stopping.signal }))).toEqual({ removed: 0 });
    expect(await store.count()).toBe(3);
    expect(await store.applyRetention(policy())).toEqual({ removed: 3 });
  });

  it("is stopped by the schedule's stop, not waited out (a shutdown during a long pass)", async () => {
    const store = await fixture.openStore();
    for (let day = 90; day < 93; day++) await store.append(entryAt(ageDays(day)));
    const options = {
      store,
      logger: createLogger('silent'),
      now: () => new Date(NOW),
      retentionDays: 60,
      agentWindow: 3,
      isResourceLive: () => true,
    };
    // The start-up run begins at once; the stop comes while it still plans.
    await scheduleRetention(options).stop();
    expect(await store.count()).toBe(3);
    expect(await runRetention(options)).toBe(3);
  });

  it('keeps only the newest agent entries of each agent group, whatever their age', async () => {
    const store = await fixture.openStore();
    const agent = (days: number, group: string) =>
      entryAt(ageDays(days), {
        category: 'agent',
        userName: 'system',
        actionName: 'Agent.Started',
        agentGroup: { id: group, name: group },
      });
    for (let i = 0; i < 5; i++) await store.append(agent(10 - i, 'g1')); // 1..5, 5 newest
    for (let i = 0; i < 2; i++) await store.append(agent(200 + i, 'g2')); // 6, 7: old but within the window
    await store.append(agent(1, 'g1')); // 8: newest of g1
    expect(await store.applyRetention(policy())).toEqual({ removed: 3 });
    expect(await idsOf(store)).toEqual([4, 5, 6, 7, 8]);
  });

  it('keeps configuration entries while a resource lives; afterwards they age like general entries', async () => {
    const store = await fixture.openStore();
    const config = (days: number, resources: AuditResource[]) =>
      entryAt(ageDays(days), { category: 'configuration', actionName: 'Api.Modify', resources });
    await store.append(config(300, [api('a')])); // 1
    await store.append(config(300, [api('gone'), api('a')])); // 2: one live resource is enough
    await store.append(config(300, [api('gone')])); // 3
    await store.append(config(10, [api('gone')])); // 4: young
    await store.append(config(300, [])); // 5: no resources: general rule
    const asked: string[] = [];
    const isResourceLive = (resource: AuditResource): boolean => {
      asked.push(resource.id);
      return resource.id === 'a';
    };
    expect(await store.applyRetention(policy({ isResourceLive }))).toEqual({ removed: 2 });
    expect(await idsOf(store)).toEqual([1, 2, 4]);
    expect(asked.sort()).toEqual(['a', 'gone']); // once per distinct resource
    // Resource `a` is deleted: its old entries now fall under the age rule.
    expect(await store.applyRetention(policy({ isResourceLive: () => false }))).toEqual({ removed: 2 });
    expect(await idsOf(store)).toEqual([4]);
  });

  it('removes the configuration history of one resource on request', async () => {
    const store = await fixture.openStore();
    await store.append(entryAt(ageDays(1), { category: 'configuration', resources: [api('a')] })); // 1
    await store.append(entryAt(ageDays(1), { category: 'configuration', resources: [api('b'), api('a')] })); // 2
    await store.append(entryAt(ageDays(1), { category: 'general', resources: [api('a')] })); // 3: not configuration
    await store.append(
      entryAt(ageDays(1), { category: 'configuration', resources: [{ type: 'Passthrough', id: 'a' }] }),
    ); // 4
    expect(await store.removeResourceHistory({ type: 'Api', id: 'a' })).toEqual({ removed: 2 });
    expect(await store.removeResourceHistory({ type: 'Api', id: 'unknown' })).toEqual({ removed: 0 });
    expect(await idsOf(store)).toEqual([3, 4]);
    await store.close();
    expect(await idsOf(await fixture.openStore())).toEqual([3, 4]);
  });

  it('makes removals durable: they survive a restart, and ids are never reused', async () => {
    const store = await fixture.openStore(() => NOW);
    await store.importEntries(
      Array.from({ length: 100 }, (_, i) => entryAt(ageDays(i), { parameters: { i } })),
    );
    expect(await store.applyRetention(policy())).toEqual({ removed: 39 });
    const expected = await idsOf(store);
    await fixture.closeStore(store);
    const reopened = await fixture.openStore(() => NOW);
    expect(await idsOf(reopened)).toEqual(expected);
    expect(await reopened.count()).toBe(61);
    expect((await reopened.append(entryAt(NOW))).id).toBe(101);
  });

  it('keeps removed entries, with the time of their removal, for the restore window', async () => {
    let clock = NOW;
    const store = await fixture.openStore(() => clock);
    await store.append(entryAt(ageDays(90))); // 1
    await store.append(entryAt(ageDays(1))); // 2
    await store.applyRetention(policy());
    const database = await fixture.openDatabase();
    try {
      const removed = await database.db
        .selectFrom('audit_entries_removed')
        .select(['id', 'removed_at'])
        .execute();
      expect(removed.map((row) => [row.id, row.removed_at])).toEqual([[1, NOW]]);
      clock = NOW + 36 * DAY_MS;
      await store.applyRetention(policy({ now: NOW, isResourceLive: () => true }));
      expect(await database.db.selectFrom('audit_entries_removed').select('id').execute()).toEqual([]);
    } finally {
      await database.close();
    }
  });
});
