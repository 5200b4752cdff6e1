import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuditStore } from '../../../src-server/core/audit/audit-entry.js';
import { ENGINES } from '../../helpers/test-database.js';
import { allIds, BASE_MS, DAY_MS, entryAt, StoreFixture } from './helpers.js';

describe.each(ENGINES)('query on %s', (engine) => {
  let fixture: StoreFixture;
  let store: AuditStore;

  beforeEach(async () => {
    fixture = await StoreFixture.create(engine);
    store = await fixture.openStore();
  });
  afterEach(async () => {
    await fixture.dispose();
  });

  it('orders by timestamp descending, then id descending', async () => {
    await store.append(entryAt(BASE_MS + 1000)); // 1
    await store.append(entryAt(BASE_MS)); // 2
    await store.append(entryAt(BASE_MS + 1000)); // 3
    await store.append(entryAt(BASE_MS + 500)); // 4
    const page = await store.query({ pageNumber: 1, pageSize: 10 });
    expect(page.items.map((e) => e.id)).toEqual([3, 1, 4, 2]);
    expect(page.totalCount).toBe(4);
  });

  it.runIf(engine === 'sqlite')(
    'checks the stored JSON of a page read as text, also after the same page was read parsed',
    async () => {
      await store.append(entryAt(BASE_MS));
      const asked = { pageNumber: 1, pageSize: 10 };
      expect((await store.query(asked)).items).toHaveLength(1);
      const database = await fixture.openDatabase();
      try {
        const row = await database.db
          .selectFrom('audit_entries')
          .select(['id', 'entry'])
          .executeTakeFirstOrThrow();
        // Still `{…}` at both ends: only SQLite's json_valid tells it apart.
        const damaged = row.entry.replace('"actionName":', '"actionName" ');
        expect(damaged).not.toBe(row.entry);
        await database.db
          .updateTable('audit_entries')
          .set({ entry: damaged })
          .where('id', '=', row.id)
          .execute();
      } finally {
        await database.close();
      }
      await expect(store.queryJson(asked)).rejects.toThrow(/damaged/);
    },
  );

  it('pages stably and returns an empty page past the end with the true total', async () => {
    for (let i = 0; i < 25; i++) await store.append(entryAt(BASE_MS + Math.floor(i / 5) * 1000));
    const pages = [];
    for (let p = 1; p <= 3; p++) pages.push(await store.query({ pageNumber: p, pageSize: 10 }));
    expect(pages.map((p) => p.items.length)).toEqual([10, 10, 5]);
    expect(pages.flatMap((p) => p.items.map((e) => e.id))).toEqual(await allIds(store));
    const past = await store.query({ pageNumber: 99, pageSize: 10 });
    expect(past).toEqual({ items: [], totalCount: 25 });
  });

  it('answers a first page and its totalCount from one moment while entries are being appended', async () => {
    // Pages larger than the trail: every entry counted is on the page, and every entry on the page is counted.
    const appending = Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        store.append(entryAt(BASE_MS + i * 60_000, i % 3 === 0 ? { actionName: 'Process.Create' } : {})),
      ),
    );
    const appends = { settled: false };
    void appending.finally(() => (appends.settled = true));
    // All of it; one action (its per-day counts); a range with partial hours at both ends (counted from the rows).
    const filters = [
      {},
      { actionName: 'Process.Create' },
      { startMs: BASE_MS + 30 * 60_000 + 1, endMs: BASE_MS + 3 * 3_600_000 + 17 },
    ];
    for (let reads = 0; !appends.settled || reads < 3; reads++) {
      for (const filter of filters) {
        const page = await store.query({ ...filter, pageNumber: 1, pageSize: 1000 });
        expect(page.items).toHaveLength(page.totalCount);
        const sought = await store.seek(filter, 1000);
        expect(sought.items).toHaveLength(sought.totalCount);
      }
      // SQLite answers on this thread: let the appends' commits run between reads.
      await new Promise((resolve) => setImmediate(resolve));
    }
    await appending;
    expect((await store.query({ pageNumber: 1, pageSize: 1000 })).totalCount).toBe(300);
  });

  it('filters by time range (start inclusive, end exclusive)', async () => {
    await store.append(entryAt(BASE_MS - 1)); // 1
    await store.append(entryAt(BASE_MS)); // 2
    await store.append(entryAt(BASE_MS + DAY_MS - 1)); // 3
    await store.append(entryAt(BASE_MS + DAY_MS)); // 4
    const page = await store.query({
      pageNumber: 1,
      pageSize: 10,
      startMs: BASE_MS,
      endMs: BASE_MS + DAY_MS,
    });
    expect(page.items.map((e) => e.id)).toEqual([3, 2]);
    expect((await store.query({ pageNumber: 1, pageSize: 10, startMs: BASE_MS + DAY_MS })).totalCount).toBe(
      1,
    );
    expect((await store.query({ pageNumber: 1, pageSize: 10, endMs: BASE_MS })).totalCount).toBe(1);
  });

  it('matches action and user names exactly but ignoring case', async () => {
    await store.append(entryAt(BASE_MS, { actionName: 'Process.Deploy', userName: 'Alice' }));
    await store.append(entryAt(BASE_MS, { actionName: 'process.deploy', userName: 'bob' }));
    await store.append(entryAt(BASE_MS, { actionName: 'Process.DeployAll', userName: 'alice' }));
    const byAction = await store.query({ pageNumber: 1, pageSize: 10, actionName: 'PROCESS.DEPLOY' });
    expect(byAction.items.map((e) => e.id)).toEqual([2, 1]);
    expect(byAction.items.map((e) => e.actionName)).toEqual(['process.deploy', 'Process.Deploy']);
    const byUser = await store.query({ pageNumber: 1, pageSize: 10, userName: 'ALICE' });
    expect(byUser.items.map((e) => e.id)).toEqual([3, 1]);
    const both = await store.query({
      pageNumber: 1,
      pageSize: 10,
      actionName: 'process.deploy',
      userName: 'alice',
    });
    expect(both.items.map((e) => e.id)).toEqual([1]);
    expect(await store.query({ pageNumber: 1, pageSize: 10, userName: 'nobody' })).toEqual({
      items: [],
      totalCount: 0,
    });
    expect(await store.query({ pageNumber: 1, pageSize: 10, actionName: 'Process' })).toEqual({
      items: [],
      totalCount: 0,
    });
  });

  it('answers deep pages of a large store', async () => {
    const entries = Array.from({ length: 30_000 }, (_, i) =>
      entryAt(BASE_MS + i * 1000, {
        actionName: i % 3 === 0 ? 'Role.Create' : 'Process.Deploy',
        parameters: { i },
      }),
    );
    await store.importEntries(entries);
    const deep = await store.query({ pageNumber: 900, pageSize: 30 });
    expect(deep.totalCount).toBe(30_000);
    expect(deep.items.map((e) => e.parameters['i'])).toEqual(
      Array.from({ length: 30 }, (_, k) => 30_000 - 1 - (899 * 30 + k)),
    );
    const deepFiltered = await store.query({ pageNumber: 300, pageSize: 30, actionName: 'role.create' });
    expect(deepFiltered.totalCount).toBe(10_000);
    expect(deepFiltered.items[0]!.parameters['i']).toBe(29_997 - 299 * 30 * 3);
  });

  it('returns entries as stored, with normalized timestamps and no unknown fields', async () => {
    const appended = await store.append({
      ...entryAt(0),
      timestamp: '2025-03-01T10:00:00Z',
      agentGroup: { id: 'ag-1', name: 'Group 1' },
      category: 'agent',
      statusCode: 201,
      extra: 'dropped',
    } as never);
    expect(appended.timestamp).toBe('2025-03-01T10:00:00.000Z');
    const [stored] = (await store.query({ pageNumber: 1, pageSize: 1 })).items;
    expect(stored).toEqual(appended);
    expect(stored).not.toHaveProperty('extra');
  });

  it('rejects invalid entries and queries with clear errors', async () => {
    await expect(store.append({ ...entryAt(BASE_MS), timestamp: 'yesterday' })).rejects.toThrow(/timestamp/);
    await expect(store.append({ ...entryAt(BASE_MS), category: 'other' as never })).rejects.toThrow(
      /category/,
    );
    await expect(store.append({ ...entryAt(BASE_MS), actionName: '' })).rejects.toThrow(/actionName/);
    await expect(store.query({ pageNumber: 0, pageSize: 10 })).rejects.toThrow(/pageNumber/);
    expect(await store.count()).toBe(0);
  });

  it('lists facets: distinct names in the casing first seen, sorted, only of entries still present', async () => {
    await store.append(entryAt(BASE_MS, { actionName: 'User.Create', userName: 'zoe' }));
    await store.append(entryAt(BASE_MS, { actionName: 'agent.Started', userName: 'Bob' }));
    await store.append(entryAt(BASE_MS, { actionName: 'user.create', userName: 'bob' }));
    await store.append(entryAt(BASE_MS - 90 * DAY_MS, { actionName: 'Old.Action', userName: 'ghost' }));
    expect(await store.facets()).toEqual({
      actionNames: ['agent.Started', 'Old.Action', 'User.Create'],
      userNames: ['Bob', 'ghost', 'zoe'],
    });
    await store.applyRetention({
      now: BASE_MS,
      maxAgeMs: 60 * DAY_MS,
      agentWindow: 10,
      isResourceLive: () => true,
    });
    expect(await store.facets()).toEqual({
      actionNames: ['agent.Started', 'User.Create'],
      userNames: ['Bob', 'zoe'],
    });
  });

  it('filters by an action and a user alike when the user has many entries and the action few', async () => {
    const HOUR = DAY_MS / 24;
    const agent = (timeMs: number, actionName: string, userName: string) =>
      entryAt(timeMs, { actionName, userName, category: 'agent', agentGroup: { id: 'g', name: 'g' } });
    // The user's entries outnumber the action's by far: on SQLite the action index reads them.
    const entries = Array.from({ length: 360 }, (_, i) =>
      agent(BASE_MS + (i * HOUR) / 4, 'Agent.Heartbeat', 'system'),
    );
    entries.push(agent(BASE_MS + 5 * HOUR + 1, 'Agent.Started', 'system')); // 361
    entries.push(agent(BASE_MS + 30 * HOUR + 1, 'Agent.Started', 'someone')); // 362: another user
    entries.push(agent(BASE_MS + 50 * HOUR + 1, 'agent.started', 'System')); // 363
    entries.push(agent(BASE_MS + 80 * HOUR + 1, 'Agent.Started', 'system')); // 364: after the range
    await store.importEntries(entries);
    const filter = {
      actionName: 'AGENT.STARTED',
      userName: 'system',
      startMs: BASE_MS + 2 * HOUR,
      endMs: BASE_MS + 70 * HOUR,
    };
    const first = await store.query({ ...filter, pageNumber: 1, pageSize: 1 });
    const second = await store.query({ ...filter, pageNumber: 2, pageSize: 1 });
    expect([...first.items, ...second.items].map((e) => e.id)).toEqual([363, 361]);
    expect([first.totalCount, second.totalCount]).toEqual([2, 2]);
    const seek = await store.seek(filter, 1);
    const after = await store.seek(filter, 1, seek.next);
    expect([...seek.items, ...after.items].map((e) => e.id)).toEqual([363, 361]);
    expect(after.next).toBeUndefined();
  });

  it('filters by an action and a user alike when the action has fewer entries than the user, not far fewer', async () => {
    const HOUR = DAY_MS / 24;
    const agent = (timeMs: number, actionName: string, userName: string) =>
      entryAt(timeMs, { actionName, userName, category: 'agent', agentGroup: { id: 'g', name: 'g' } });
    // 30 of the user's entries, 12 of the action's (half of them another user's): on SQLite the action index
    // reads them, the user tested in the index.
    const entries = Array.from({ length: 30 }, (_, i) =>
      agent(BASE_MS + i * HOUR, 'Agent.Heartbeat', 'system'),
    );
    for (let i = 0; i < 12; i++)
      entries.push(agent(BASE_MS + i * 2 * HOUR + 1, 'Agent.Started', i % 2 === 0 ? 'system' : 'someone'));
    await store.importEntries(entries);
    const filter = {
      actionName: 'agent.started',
      userName: 'SYSTEM',
      startMs: BASE_MS,
      endMs: BASE_MS + 20 * HOUR,
    };
    // Ids 31, 33, …: the action's entries of the user, at hours 0, 4, 8, 12, 16 in the range; newest first.
    const expected = [39, 37, 35, 33, 31];
    const pages = [1, 2, 3].map((pageNumber) => store.query({ ...filter, pageNumber, pageSize: 2 }));
    const read = await Promise.all(pages);
    expect(read.flatMap((page) => page.items.map((e) => e.id))).toEqual(expected);
    expect(read.map((page) => page.totalCount)).toEqual([5, 5, 5]);
    const seek = await store.seek(filter, 3);
    const after = await store.seek(filter, 3, seek.next);
    expect([...seek.items, ...after.items].map((e) => e.id)).toEqual(expected);
  });
});
