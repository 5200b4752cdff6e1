import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MonitoringRecord } from '../../../src-server/core/monitoring/monitoring-record.js';
import {
  BASE_MS,
  newRecord,
  newestFirst,
  query,
  record,
  referenceQuery,
  REQUIRED_RECORD_KEYS,
  StoreFixture,
} from './helpers.js';

describe('monitoring store queries', () => {
  let fixture: StoreFixture;
  beforeEach(async () => {
    fixture = await StoreFixture.create();
  });
  afterEach(async () => {
    await fixture.dispose();
  });

  it('matches filtering and sorting an array, before and after reopening', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(newRecord, { minLength: 1, maxLength: 60 }), { minLength: 1, maxLength: 5 }),
        fc.array(query, { minLength: 10, maxLength: 30 }),
        async (batches, queries) => {
          const dir = fixture.nextDir();
          // Small segments: the records span several files.
          const store = await fixture.openStore(dir, { segmentMaxBytes: 2048 });
          const stored: MonitoringRecord[] = [];
          for (const batch of batches) stored.push(...(await store.append(batch)));
          const check = async (s: typeof store): Promise<void> => {
            expect(s.stats().records).toBe(stored.length);
            for (const q of queries) {
              const page = await s.query(q);
              expect({ ids: page.items.map((item) => item.id), totalCount: page.totalCount }).toEqual(
                referenceQuery(stored, q),
              );
            }
          };
          await check(store);
          await store.close();
          const reopened = await fixture.openStore(dir, { segmentMaxBytes: 2048 });
          await check(reopened);
          await reopened.close();
        },
      ),
      { numRuns: 60 },
    );
  });

  it('returns records as they were appended (ids increasing) and reads one by id', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(newRecord, { minLength: 1, maxLength: 80 }), async (records) => {
        const store = await fixture.openStore(fixture.nextDir());
        const stored = await store.append(records);
        expect(stored.map((r) => r.id)).toEqual(records.map((_, i) => i + 1));
        for (const expected of stored) expect(await store.get(expected.id)).toEqual(expected);
        expect(await store.get(stored.length + 1)).toBeUndefined();
        const all = await store.query({ pageNumber: 1, pageSize: 500 });
        expect(all.items).toEqual([...stored].sort(newestFirst));
        await store.close();
      }),
      { numRuns: 40 },
    );
  });

  it('lists a slow request by its arrival time even though it was recorded after quicker ones', async () => {
    const store = await fixture.openStore(fixture.nextDir());
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
    const store = await fixture.openStore(fixture.nextDir());
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
    const store = await fixture.openStore(fixture.nextDir());
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
    const store = await fixture.openStore(fixture.nextDir());
    await expect(store.query({ pageNumber: 0, pageSize: 10 })).rejects.toThrow(RangeError);
    await expect(store.query({ pageNumber: 1, pageSize: 0 })).rejects.toThrow(RangeError);
  });

  it('refuses work after close', async () => {
    const store = await fixture.openStore(fixture.nextDir());
    await store.close();
    await expect(store.append([record()])).rejects.toThrow(/closed/);
    await expect(store.query({ pageNumber: 1, pageSize: 1 })).rejects.toThrow(/closed/);
  });
});
