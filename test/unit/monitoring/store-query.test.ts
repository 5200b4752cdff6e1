import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MonitoringRecord } from '../../../src-server/core/monitoring/monitoring-record.js';
import { ENGINES } from '../../helpers/test-database.js';
import {
  BASE_MS,
  newRecord,
  newestFirst,
  newWideRecord,
  query,
  record,
  referenceQuery,
  REQUIRED_RECORD_KEYS,
  StoreFixture,
  wideQuery,
} from './helpers.js';

describe.each(ENGINES)('monitoring store queries on %s', (engine) => {
  let fixture: StoreFixture;
  beforeEach(async () => {
    fixture = await StoreFixture.create(engine);
  });
  afterEach(async () => {
    await fixture.dispose();
  });

  it.each([
    ['seconds apart (counted from the records)', newRecord, query],
    ['minutes apart over hours (counted from roll-ups)', newWideRecord, wideQuery],
  ])(
    'matches filtering and sorting an array, before and after reopening: %s',
    async (_, records, queries) => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.array(records, { minLength: 1, maxLength: 60 }), { minLength: 1, maxLength: 5 }),
          fc.array(queries, { minLength: 10, maxLength: 30 }),
          async (batches, queries) => {
            await fixture.clear();
            const store = await fixture.openStore();
            const stored: MonitoringRecord[] = [];
            for (const batch of batches) stored.push(...(await store.append(batch)));
            const check = async (s: typeof store): Promise<void> => {
              expect((await s.stats()).records).toBe(stored.length);
              for (const q of queries) {
                const page = await s.query(q);
                expect({ ids: page.items.map((item) => item.id), totalCount: page.totalCount }).toEqual(
                  referenceQuery(stored, q),
                );
              }
            };
            await check(store);
            await fixture.closeStore(store);
            const reopened = await fixture.openStore();
            await check(reopened);
            await fixture.closeStore(reopened);
          },
        ),
        { numRuns: engine === 'postgres' ? 25 : 50 },
      );
    },
  );

  it('returns records as they were appended (ids increasing) and reads one by id', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(newRecord, { minLength: 1, maxLength: 80 }), async (records) => {
        await fixture.clear();
        const store = await fixture.openStore();
        const stored = await store.append(records);
        const first = stored[0]!.id;
        expect(stored.map((r) => r.id)).toEqual(records.map((_, i) => first + i));
        for (const expected of stored) expect(await store.get(expected.id)).toEqual(expected);
        expect(await store.get(first + stored.length)).toBeUndefined();
        const all = await store.query({ pageNumber: 1, pageSize: 500 });
        expect(all.items).toEqual([...stored].sort(newestFirst));
        await fixture.closeStore(store);
      }),
      { numRuns: 20 },
    );
  });

  it('lists a slow request by its arrival time even though it was recorded after quicker ones', async () => {
    const store = await fixture.openStore();
    await store.append([record({ time: new Date(BASE_MS + 5_000).toISOString(), path: '/quick' })]);
    await store.append([
      record({ time: new Date(BASE_MS).toISOString(), path: '/slow', durationMs: 30_000 }),
    ]);
    await store.append([record({ time: new Date(BASE_MS + 9_000).toISOString(), path: '/latest' })]);
    const page = await store.query({ pageNumber: 1, pageSize: 10 });
    expect(page.items.map((item) => item.path)).toEqual(['/latest', '/quick', '/slow']);
    const earliest = await store.query({ pageNumber: 1, pageSize: 10, endMs: BASE_MS + 1 });
    expect(earliest.items.map((item) => item.path)).toEqual(['/slow']);
  });

  it('keeps every field, leaves absent ones absent, and stores a path without its query string', async () => {
    const store = await fixture.openStore();
    const full = record({
      apiId: 'api-1',
      apiName: 'Orders ✓',
      operation: 'GET /orders/{id}',
      targetUrl: 'https://backend.test/orders/********',
      identity: 'apiKey:gh_1234',
      reason: 'upstream answered slowly',
      bytesIn: 5_000_000_000,
    });
    const [stored] = await store.append([full]);
    expect(await store.get(stored!.id)).toEqual({ id: 1, ...full });
    const [bare] = await store.append([record({ path: '/search?q=secret&token=abc' })]);
    const read = await store.get(bare!.id);
    expect(read?.path).toBe('/search');
    expect(Object.keys(read!).sort()).toEqual(['id', ...REQUIRED_RECORD_KEYS].sort());
  });

  it('skips records whose time cannot be read and bounds long strings', async () => {
    const store = await fixture.openStore();
    const stored = await store.append([
      record({ time: 'yesterday' }),
      record({ path: `/${'x'.repeat(10_000)}`, reason: 'r'.repeat(5_000) }),
    ]);
    expect(stored).toHaveLength(1);
    const read = await store.get(stored[0]!.id);
    expect(read!.path).toHaveLength(2048);
    expect(read!.reason).toHaveLength(500);
  });

  it('rejects invalid paging', async () => {
    const store = await fixture.openStore();
    await expect(store.query({ pageNumber: 0, pageSize: 10 })).rejects.toThrow(RangeError);
    await expect(store.query({ pageNumber: 1, pageSize: 0 })).rejects.toThrow(RangeError);
  });

  it('refuses work after close', async () => {
    const store = await fixture.openStore();
    await store.close();
    await expect(store.append([record()])).rejects.toThrow(/closed/);
    await expect(store.query({ pageNumber: 1, pageSize: 1 })).rejects.toThrow(/closed/);
  });
});
