import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MonitoringSummaryData } from '../../../src-server/core/monitoring/monitoring-store.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';
import { record } from '../../unit/monitoring/helpers.js';
import { getJson, recordThroughSink, validationErrors } from './helpers.js';

type Summary = MonitoringSummaryData & { interval: string; start: string; end: string };

const SUMMARY = '/api/v1/monitoring/summary';
const NOW = Date.parse('2026-04-10T12:30:00.000Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();

describe('GET /api/v1/monitoring/summary', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ now: () => new Date(NOW) });
    await recordThroughSink(server, [
      // Last hour: 20 requests of the orders API, 10 ms .. 200 ms, every fifth one failing.
      ...Array.from({ length: 20 }, (_, i) =>
        record({
          time: iso(NOW - HOUR + i * 2 * MINUTE),
          apiId: 'orders',
          operation: 'GET /orders/{id}',
          durationMs: (i + 1) * 10,
          status: i % 5 === 4 ? 502 : 200,
          outcome: i % 5 === 4 ? 'upstream-error' : 'forwarded',
        }),
      ),
      // Unmatched paths, three hours ago and two days ago.
      record({ time: iso(NOW - 3 * HOUR), status: 404, outcome: 'unmatched', durationMs: 1 }),
      record({ time: iso(NOW - 2 * DAY), status: 404, outcome: 'unmatched', durationMs: 1 }),
    ]);
  });
  afterAll(() => server.close());

  const summary = (search: string) => getJson<Summary>(server, `${SUMMARY}${search}`);

  it('defaults to the last 24 hours ending now, in 5-minute buckets', async () => {
    const result = await summary('');
    expect(result.interval).toBe('5m');
    expect(result.end).toBe(iso(NOW));
    expect(result.start).toBe(iso(NOW - DAY));
    expect(result.buckets).toHaveLength(288);
    expect(result.buckets[0]!.start).toBe(iso(NOW - DAY));
    expect(result.totals.count).toBe(21);
    expect(result.totals.status).toEqual({ '1xx': 0, '2xx': 16, '3xx': 0, '4xx': 1, '5xx': 4, other: 0 });
    expect(result.buckets.reduce((sum, bucket) => sum + bucket.count, 0)).toBe(21);
  });

  it('applies the list filters and reports percentiles per bucket', async () => {
    const result = await summary(
      `?apiId=orders&startDateTimeUtc=${iso(NOW - HOUR)}&endDateTimeUtc=${iso(NOW)}&interval=1h`,
    );
    expect(result.interval).toBe('1h');
    // 11:30–12:30 spans the 11:00 and 12:00 buckets.
    expect(result.buckets.map((bucket) => [bucket.start, bucket.count])).toEqual([
      [iso(NOW - HOUR - 30 * MINUTE), 15],
      [iso(NOW - 30 * MINUTE), 5],
    ]);
    const { totals } = result;
    expect(totals.count).toBe(20);
    expect(totals.minDurationMs).toBe(10);
    expect(totals.maxDurationMs).toBe(200);
    expect(totals.averageDurationMs).toBe(105);
    // Nearest rank of 10, 20 … 200: p50 = 100, p95 = 190, p99 = 200; binned values are at most 4.4 % above.
    expect(totals.p50).toBeGreaterThanOrEqual(100);
    expect(totals.p50).toBeLessThanOrEqual(104.5);
    expect(totals.p95).toBeGreaterThanOrEqual(190);
    expect(totals.p95).toBeLessThanOrEqual(198.5);
    expect(totals.p99).toBe(200);
    const failures = await summary(`?status=5xx&outcome=upstream-error&startDateTimeUtc=${iso(NOW - HOUR)}`);
    expect(failures.totals.count).toBe(4);
  });

  it('picks the smallest interval that keeps the range within 500 buckets', async () => {
    const cases: [number, string][] = [
      [6 * HOUR, '1m'],
      [8 * HOUR, '1m'],
      [8.5 * HOUR, '5m'],
      [40 * HOUR, '5m'],
      [2 * DAY, '1h'],
      [20 * DAY, '1h'],
      [21 * DAY, '1d'],
    ];
    for (const [range, interval] of cases) {
      const result = await summary(`?startDateTimeUtc=${iso(NOW - range)}&endDateTimeUtc=${iso(NOW)}`);
      expect(result.interval, `${range / HOUR} h`).toBe(interval);
      expect(result.buckets.length).toBeLessThanOrEqual(500);
    }
    const month = await summary(`?startDateTimeUtc=${iso(NOW - 30 * DAY)}&interval=auto`);
    expect(month.totals.count).toBe(22);
  });

  it('refuses an explicit interval that needs too many buckets, and other bad input', async () => {
    expect(Object.keys(await validationErrors(server, `${SUMMARY}?interval=1m`))).toEqual(['interval']);
    expect(Object.keys(await validationErrors(server, `${SUMMARY}?interval=2h`))).toEqual(['interval']);
    expect(
      Object.keys(await validationErrors(server, `${SUMMARY}?startDateTimeUtc=${iso(NOW + HOUR)}`)),
    ).toEqual(['startDateTimeUtc']);
    expect(
      Object.keys(await validationErrors(server, `${SUMMARY}?startDateTimeUtc=2000-01-01T00:00:00Z`)),
    ).toEqual(['startDateTimeUtc']);
    expect(Object.keys(await validationErrors(server, `${SUMMARY}?status=7xx`))).toEqual(['status']);
  });

  it('answers an empty range with no buckets and null percentiles', async () => {
    const result = await summary(`?startDateTimeUtc=${iso(NOW)}&endDateTimeUtc=${iso(NOW)}`);
    expect(result.buckets).toEqual([]);
    expect(result.totals).toMatchObject({
      count: 0,
      p50: null,
      p95: null,
      p99: null,
      averageDurationMs: null,
    });
  });
});
