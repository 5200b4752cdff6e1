import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MonitoringRecord } from '../../../src-server/core/monitoring/monitoring-record.js';
import type { StatusCounts } from '../../../src-server/core/monitoring/monitoring-store.js';
import { ENGINES } from '../../helpers/test-database.js';
import {
  BASE_MS,
  DAYS_SPAN_MS,
  daysFilter,
  filter,
  newDaysRecord,
  newWideRecord,
  WIDE_SPAN_MS,
  wideFilter,
  nearestRank,
  newRecord,
  record,
  referenceMatches,
  SPAN_MS,
  StoreFixture,
} from './helpers.js';

const MINUTE = 60_000;
/**
 * Percentiles come from log bins 2^(1/16) wide: never below the exact value, at most 4.4 % above (durations
 * under ~1 µs share one bin), then rounded to the microsecond.
 */
const BIN_RATIO = 2 ** (1 / 16);
const ROUNDING = 0.0005;

function expectBinned(actual: number | null, exact: number): void {
  expect(actual).not.toBeNull();
  expect(actual!).toBeGreaterThanOrEqual(exact - ROUNDING);
  expect(actual!).toBeLessThanOrEqual(Math.max(exact * BIN_RATIO, 0.001) + ROUNDING);
}

function statusCounts(records: readonly MonitoringRecord[]): StatusCounts {
  const counts: StatusCounts = { '1xx': 0, '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0, other: 0 };
  for (const { status } of records) {
    const name =
      status >= 100 && status <= 599 ? (`${Math.floor(status / 100)}xx` as keyof StatusCounts) : 'other';
    counts[name]++;
  }
  return counts;
}

describe.each(ENGINES)('monitoring summary on %s', (engine) => {
  let fixture: StoreFixture;
  beforeEach(async () => {
    fixture = await StoreFixture.create(engine);
  });
  afterEach(async () => {
    await fixture.dispose();
  });

  it('buckets known data: counts, status classes, percentiles and totals', async () => {
    const store = await fixture.openStore();
    const at = (minutes: number, seconds = 0) =>
      new Date(BASE_MS + minutes * MINUTE + seconds * 1000).toISOString();
    // Minute 0: durations 1..100 ms, all 200. Minute 2: ten requests of 40 ms with mixed statuses. Minute 1 empty.
    const first = Array.from({ length: 100 }, (_, i) => record({ time: at(0, i * 0.5), durationMs: i + 1 }));
    const statuses = [101, 204, 302, 404, 404, 500, 503, 0, 999, 200];
    const third = statuses.map((status, i) => record({ time: at(2, i), status, durationMs: 40 }));
    await store.append([...third, ...first]);
    const summary = await store.summarize({
      filter: { startMs: BASE_MS, endMs: BASE_MS + 3 * MINUTE },
      intervalMs: MINUTE,
    });

    expect(summary.buckets.map((bucket) => bucket.start)).toEqual([at(0), at(1), at(2)]);
    const [zero, one, two] = summary.buckets;
    expect(zero!.count).toBe(100);
    expect(zero!.status).toEqual({ '1xx': 0, '2xx': 100, '3xx': 0, '4xx': 0, '5xx': 0, other: 0 });
    expectBinned(zero!.p50, 50);
    expectBinned(zero!.p95, 95);
    expectBinned(zero!.p99, 99);
    expect(one).toEqual({
      start: at(1),
      count: 0,
      status: statusCounts([]),
      p50: null,
      p95: null,
      p99: null,
    });
    // Equal durations: the clamp to the observed range makes the percentile exact.
    expect(two).toMatchObject({ count: 10, p50: 40, p95: 40, p99: 40 });
    expect(two!.status).toEqual({ '1xx': 1, '2xx': 2, '3xx': 1, '4xx': 2, '5xx': 2, other: 2 });

    expect(summary.totals.count).toBe(110);
    expect(summary.totals.status).toEqual({ '1xx': 1, '2xx': 102, '3xx': 1, '4xx': 2, '5xx': 2, other: 2 });
    expect(summary.totals.minDurationMs).toBe(1);
    expect(summary.totals.maxDurationMs).toBe(100);
    expect(summary.totals.averageDurationMs).toBeCloseTo((5050 + 400) / 110, 9);
    const all = [...first.map((r) => r.durationMs), ...third.map((r) => r.durationMs)].sort((a, b) => a - b);
    expectBinned(summary.totals.p95, nearestRank(all, 0.95));
  });

  it('aligns buckets to the interval and counts only requests inside the range', async () => {
    const store = await fixture.openStore();
    await store.append([
      record({ time: new Date(BASE_MS + 10 * MINUTE).toISOString() }),
      record({ time: new Date(BASE_MS + 20 * MINUTE).toISOString() }),
      record({ time: new Date(BASE_MS + 35 * MINUTE).toISOString() }),
    ]);
    const summary = await store.summarize({
      filter: { startMs: BASE_MS + 15 * MINUTE, endMs: BASE_MS + 35 * MINUTE },
      intervalMs: 60 * MINUTE,
    });
    expect(summary.buckets).toHaveLength(1);
    expect(summary.buckets[0]!.start).toBe(new Date(BASE_MS).toISOString());
    expect(summary.buckets[0]!.count).toBe(1);
  });

  it.each([
    [
      'seconds apart, second and minute buckets (from the records)',
      newRecord,
      filter,
      [1_000, 5_000, MINUTE],
      SPAN_MS,
    ],
    [
      'minutes apart over hours, 5-minute to daily buckets (from roll-ups)',
      newWideRecord,
      wideFilter,
      [5 * MINUTE, 60 * MINUTE, 24 * 60 * MINUTE, MINUTE],
      WIDE_SPAN_MS,
    ],
    [
      'hours apart over days, daily and hourly buckets (from daily, hourly and 5-minute roll-ups)',
      newDaysRecord,
      daysFilter,
      [24 * 60 * MINUTE, 60 * MINUTE, 5 * MINUTE],
      DAYS_SPAN_MS,
    ],
  ] as const)(
    'agrees with a reference for any records and filter: %s',
    async (_, records, filters, intervals, spanMs) => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.array(records, { minLength: 1, maxLength: 60 }), { minLength: 1, maxLength: 3 }),
          filters,
          fc.constantFrom(...intervals),
          async (batches, f, intervalMs) => {
            await fixture.clear();
            const store = await fixture.openStore();
            const stored = [];
            for (const batch of batches) stored.push(...(await store.append(batch)));
            const startMs = f.startMs ?? BASE_MS - 1_000;
            const endMs = Math.max(startMs, f.endMs ?? BASE_MS + spanMs + 1_000);
            const summary = await store.summarize({ filter: { ...f, startMs, endMs }, intervalMs });
            const matching = stored.filter((r) => referenceMatches(r, { ...f, startMs, endMs }));
            expect(summary.totals.count).toBe(matching.length);
            expect(summary.totals.status).toEqual(statusCounts(matching));
            expect(summary.buckets.reduce((sum, bucket) => sum + bucket.count, 0)).toBe(matching.length);
            for (const bucket of summary.buckets) {
              const from = Date.parse(bucket.start);
              const inBucket = matching.filter(
                (r) => Date.parse(r.time) >= from && Date.parse(r.time) < from + intervalMs,
              );
              expect(bucket.count).toBe(inBucket.length);
              if (inBucket.length === 0) continue;
              const sorted = inBucket.map((r) => r.durationMs).sort((a, b) => a - b);
              expectBinned(bucket.p50, nearestRank(sorted, 0.5));
              expectBinned(bucket.p99, nearestRank(sorted, 0.99));
            }
            expect(summary.totals.minDurationMs).toBe(
              matching.length ? Math.min(...matching.map((r) => r.durationMs)) : null,
            );
            await fixture.closeStore(store);
          },
        ),
        { numRuns: engine === 'postgres' ? 25 : 50 },
      );
    },
  );

  it('has no buckets for an empty range', async () => {
    const store = await fixture.openStore();
    const summary = await store.summarize({
      filter: { startMs: BASE_MS, endMs: BASE_MS },
      intervalMs: MINUTE,
    });
    expect(summary.buckets).toEqual([]);
    expect(summary.totals).toMatchObject({
      count: 0,
      p50: null,
      minDurationMs: null,
      averageDurationMs: null,
    });
  });
});
