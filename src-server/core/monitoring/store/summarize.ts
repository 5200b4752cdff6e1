import type {
  MonitoringSummaryData,
  StatusClassName,
  StatusCounts,
  SummaryBucket,
  SummaryRequest,
} from '../monitoring-store.js';
import { BIN_COUNT, binnedPercentiles } from '../duration-bins.js';
import type { MonitoringIndex } from './monitoring-index.js';
import { planScan } from './query-plan.js';

const STATUS_CLASSES: readonly StatusClassName[] = ['1xx', '2xx', '3xx', '4xx', '5xx', 'other'];
const OTHER_STATUS = 5;
/** Status (a u16 in the index) → index into STATUS_CLASSES, looked up rather than computed per row. */
const STATUS_CLASS_OF = Uint8Array.from({ length: 0x10000 }, (_, status) =>
  status >= 100 && status <= 599 ? Math.floor(status / 100) - 1 : OTHER_STATUS,
);
/** A safety net for callers that skip the endpoint's own limit (~2 MiB of histogram per 500 buckets). */
export const MAX_SUMMARY_BUCKETS = 10_000;

/** Buckets aligned to multiples of the interval since the epoch (UTC), so charts stay put across refreshes. */
export function bucketLayout(
  startMs: number,
  endMs: number,
  intervalMs: number,
): { firstStart: number; count: number } {
  const firstStart = Math.floor(startMs / intervalMs) * intervalMs;
  const count = endMs > startMs ? Math.ceil((endMs - firstStart) / intervalMs) : 0;
  return { firstStart, count };
}

/**
 * Counts, status classes and duration percentiles per time bucket, in one pass over the matching rows.
 * Percentiles come from per-bucket log-scale histograms (see `duration-bins.ts`), so the cost does not depend
 * on sorting and a bucket's memory is fixed.
 */
export function summarize(index: MonitoringIndex, request: SummaryRequest): MonitoringSummaryData {
  const { filter, intervalMs } = request;
  const layout = bucketLayout(filter.startMs, filter.endMs, intervalMs);
  if (layout.count > MAX_SUMMARY_BUCKETS) {
    throw new RangeError(`A summary is limited to ${MAX_SUMMARY_BUCKETS} buckets`);
  }
  const buckets = layout.count;
  const counts = new Uint32Array(buckets);
  const statuses = new Uint32Array(buckets * STATUS_CLASSES.length);
  const bins = new Uint32Array(buckets * BIN_COUNT);
  const mins = new Float64Array(buckets).fill(Number.POSITIVE_INFINITY);
  const maxs = new Float64Array(buckets).fill(Number.NEGATIVE_INFINITY);
  let totalSum = 0;

  const plan = buckets > 0 ? planScan(index, filter) : undefined;
  if (plan) {
    const { times, statuses: rowStatuses, durations, durationBins } = index.columns;
    const order = index.order.rows;
    const { matcher } = plan;
    // Rows come in time order, so the bucket only ever moves forward: no division per row.
    let bucket = 0;
    let bucketEnd = layout.firstStart + intervalMs;
    for (let position = plan.low; position < plan.high; position++) {
      const row = order[position]!;
      if (matcher.active && !matcher.matches(row)) continue;
      const time = times[row]!;
      if (time >= bucketEnd) {
        bucket = Math.floor((time - layout.firstStart) / intervalMs);
        bucketEnd = layout.firstStart + (bucket + 1) * intervalMs;
      }
      const duration = durations[row]!;
      counts[bucket]!++;
      statuses[bucket * STATUS_CLASSES.length + STATUS_CLASS_OF[rowStatuses[row]!]!]!++;
      bins[bucket * BIN_COUNT + durationBins[row]!]!++;
      if (duration < mins[bucket]!) mins[bucket] = duration;
      if (duration > maxs[bucket]!) maxs[bucket] = duration;
      totalSum += duration;
    }
  }

  const totalBins = new Uint32Array(BIN_COUNT);
  for (let bucket = 0; bucket < buckets; bucket++) {
    if (counts[bucket] === 0) continue;
    for (let bin = 0; bin < BIN_COUNT; bin++) totalBins[bin]! += bins[bucket * BIN_COUNT + bin]!;
  }

  const bucketList: SummaryBucket[] = [];
  const totalStatus = new Uint32Array(STATUS_CLASSES.length);
  let totalCount = 0;
  let totalMin = Number.POSITIVE_INFINITY;
  let totalMax = Number.NEGATIVE_INFINITY;
  for (let bucket = 0; bucket < buckets; bucket++) {
    const count = counts[bucket]!;
    totalCount += count;
    for (let k = 0; k < STATUS_CLASSES.length; k++) {
      totalStatus[k]! += statuses[bucket * STATUS_CLASSES.length + k]!;
    }
    if (count > 0) {
      totalMin = Math.min(totalMin, mins[bucket]!);
      totalMax = Math.max(totalMax, maxs[bucket]!);
    }
    bucketList.push({
      start: new Date(layout.firstStart + bucket * intervalMs).toISOString(),
      count,
      status: statusCounts(statuses, bucket * STATUS_CLASSES.length),
      ...percentilesOf(bins, bucket * BIN_COUNT, count, mins[bucket]!, maxs[bucket]!),
    });
  }
  return {
    buckets: bucketList,
    totals: {
      count: totalCount,
      status: statusCounts(totalStatus, 0),
      ...percentilesOf(totalBins, 0, totalCount, totalMin, totalMax),
      minDurationMs: totalCount > 0 ? totalMin : null,
      maxDurationMs: totalCount > 0 ? totalMax : null,
      averageDurationMs: totalCount > 0 ? totalSum / totalCount : null,
    },
  };
}

function statusCounts(values: Uint32Array, offset: number): StatusCounts {
  const counts = {} as StatusCounts;
  STATUS_CLASSES.forEach((name, k) => {
    counts[name] = values[offset + k]!;
  });
  return counts;
}

function percentilesOf(
  bins: Uint32Array,
  offset: number,
  count: number,
  min: number,
  max: number,
): { p50: number | null; p95: number | null; p99: number | null } {
  if (count === 0) return { p50: null, p95: null, p99: null };
  const [p50, p95, p99] = binnedPercentiles(bins, offset, count, min, max);
  return { p50: round(p50), p95: round(p95), p99: round(p99) };
}

/** Microsecond precision is all a histogram percentile can claim. */
function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
