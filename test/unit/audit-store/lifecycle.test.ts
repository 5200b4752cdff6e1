import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuditStoreClosedError } from '../../../src-server/core/audit/sql/sql-audit-store.js';
import { ENGINES } from '../../helpers/test-database.js';
import { allIds, BASE_MS, DAY_MS, entryAt, referenceFilter, StoreFixture } from './helpers.js';

describe.each(ENGINES)('the audit store on %s', (engine) => {
  let fixture: StoreFixture;
  beforeEach(async () => {
    fixture = await StoreFixture.create(engine);
  });
  afterEach(async () => {
    await fixture.dispose();
  });

  describe('iterate', () => {
    it('yields every match in list order, in batches', async () => {
      const store = await fixture.openStore();
      const entries = Array.from({ length: 1500 }, (_, i) =>
        entryAt(BASE_MS + ((i * 7919) % 1000) * 1000, {
          userName: i % 2 ? 'odd' : 'even',
          parameters: { i },
        }),
      );
      await store.importEntries(entries);
      const stored = [];
      for await (const entry of store.iterate({})) stored.push(entry);
      expect(stored).toHaveLength(1500);
      const filter = { userName: 'ODD', startMs: BASE_MS + 100_000, endMs: BASE_MS + 700_000 };
      expect(await allIds(store, filter)).toEqual(referenceFilter(stored, filter).map((e) => e.id));
      expect(await allIds(store, { actionName: 'Nothing.Here' })).toEqual([]);
    });

    it('is lazy and not disturbed by appends and removals while it runs', async () => {
      const store = await fixture.openStore();
      await store.importEntries(Array.from({ length: 2000 }, (_, i) => entryAt(BASE_MS + i * 1000)));
      const seen: number[] = [];
      for await (const entry of store.iterate({})) {
        seen.push(entry.id);
        if (seen.length === 10) {
          await store.append(entryAt(BASE_MS + 10_000_000)); // newer than the cursor: not yielded
          await store.applyRetention({
            now: BASE_MS + DAY_MS,
            maxAgeMs: DAY_MS - 100_000,
            agentWindow: 1,
            isResourceLive: () => true,
          });
        }
      }
      // Entries 1..100 (older than the cutoff) were removed mid-way and are not yielded.
      expect(seen).toEqual(Array.from({ length: 1900 }, (_, i) => 2000 - i));
    });
  });

  describe('close', () => {
    it('waits for pending appends, and then refuses every call', async () => {
      const store = await fixture.openStore();
      const pending = Array.from({ length: 20 }, (_, i) => store.append(entryAt(BASE_MS + i)));
      await store.close();
      expect((await Promise.all(pending)).map((e) => e.id)).toHaveLength(20);

      await expect(store.append(entryAt(BASE_MS))).rejects.toBeInstanceOf(AuditStoreClosedError);
      await expect(store.query({ pageNumber: 1, pageSize: 1 })).rejects.toThrow('The audit store is closed');
      await expect(store.importEntries([])).rejects.toThrow(AuditStoreClosedError);
      await expect(
        store.applyRetention({ now: 0, maxAgeMs: 0, agentWindow: 0, isResourceLive: () => true }),
      ).rejects.toThrow(AuditStoreClosedError);
      await expect(store.removeResourceHistory({ type: 'Api', id: 'x' })).rejects.toThrow(
        AuditStoreClosedError,
      );
      await expect(store.flush()).rejects.toThrow(AuditStoreClosedError);
      await expect(store.iterate({})[Symbol.asyncIterator]().next()).rejects.toThrow(AuditStoreClosedError);
      await expect(store.count()).rejects.toThrow(AuditStoreClosedError);
      await expect(store.facets()).rejects.toThrow(AuditStoreClosedError);
      await fixture.closeStore(store); // idempotent

      const reopened = await fixture.openStore();
      expect(await reopened.count()).toBe(20);
    });

    it('waits for a running import', async () => {
      const store = await fixture.openStore();
      const importing = store.importEntries(Array.from({ length: 30_000 }, (_, i) => entryAt(BASE_MS + i)));
      await new Promise((resolve) => setImmediate(resolve));
      await fixture.closeStore(store);
      expect(await importing).toMatchObject({ added: 30_000 });
      expect(await (await fixture.openStore()).count()).toBe(30_000);
    });
  });
});
