import { readdir, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type {
  AuditResource,
  AuditStore,
  RetentionPolicy,
} from '../../../src-server/core/audit/audit-entry.js';
import { allIds, BASE_MS, DAY_MS, entryAt, StoreFixture } from './helpers.js';

let fixture: StoreFixture;
beforeEach(async () => {
  fixture = await StoreFixture.create();
});
afterEach(async () => {
  await fixture.dispose();
});

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

describe('retention', () => {
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

  it('makes removals durable: they survive close, a crash image and an index rebuild', async () => {
    const store = await fixture.openStore({ segmentMaxBytes: 4096 });
    await store.importEntries(
      Array.from({ length: 100 }, (_, i) => entryAt(ageDays(i), { parameters: { i } })),
    );
    expect(await store.applyRetention(policy())).toEqual({ removed: 39 });
    const expected = await idsOf(store);
    await store.close();
    expect(await idsOf(await fixture.openStore({ segmentMaxBytes: 4096 }))).toEqual(expected);
    const { rm } = await import('node:fs/promises');
    await rm(path.join(fixture.dir, 'index.snapshot'));
    const rebuilt = await fixture.openStore({ segmentMaxBytes: 4096 });
    expect(await idsOf(rebuilt)).toEqual(expected);
    expect(await rebuilt.count()).toBe(61);
  });

  it('reclaims disk space by compacting mostly dead segments', async () => {
    const logDir = path.join(fixture.dir, 'log');
    const diskBytes = async (): Promise<number> => {
      let total = 0;
      for (const name of await readdir(logDir)) total += (await stat(path.join(logDir, name))).size;
      return total;
    };
    const store = await fixture.openStore({ segmentMaxBytes: 8192 });
    await store.importEntries(
      Array.from({ length: 600 }, (_, i) =>
        entryAt(ageDays(200 - i * 0.25), { parameters: { i, text: 'x'.repeat(100) } }),
      ),
    );
    const before = await diskBytes();
    const { removed } = await store.applyRetention(policy());
    expect(removed).toBe(560); // older than 60 days: i < 560
    expect(await diskBytes()).toBeLessThan(before * 0.3);
    const survivors = await idsOf(store);
    expect(survivors).toEqual(Array.from({ length: 40 }, (_, k) => 561 + k));
    const page = await store.query({ pageNumber: 1, pageSize: 5 });
    expect(page.items.map((e) => e.parameters['i'])).toEqual([599, 598, 597, 596, 595]);
    await store.close();
    const reopened = await fixture.openStore({ segmentMaxBytes: 8192 });
    expect(await idsOf(reopened)).toEqual(survivors);
    expect(fixture.warnings).toEqual([]);
    // Ids are never reused after removals.
    expect((await reopened.append(entryAt(NOW))).id).toBe(601);
  });
});
