import { BIN_COUNT, binnedPercentiles, durationBin } from './duration-bins.js';
import type {
  MonitoringSummaryData,
  StatusClassName,
  StatusCounts,
  SummaryBucket,
} from './monitoring-store.js';

export const STATUS_CLASSES: readonly StatusClassName[] = ['1xx', '2xx', '3xx', '4xx', '5xx', 'other'];
const CLASSES = STATUS_CLASSES.length;
const OTHER_STATUS = 5;

/** Index into STATUS_CLASSES of a status code. */
export function statusClassOf(status: number): number {
  return status >= 100 && status <= 599 ? Math.floor(status / 100) - 1 : OTHER_STATUS;
}

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
 * Counts, status classes and duration percentiles per time bucket, fed with single records and with roll-ups
 * (pre-summed stretches that lie inside one bucket). Percentiles come from per-bucket log-scale histograms (see
 * `duration-bins.ts`): the cost does not depend on sorting and a bucket's memory is fixed.
 */
export class SummaryAccumulator {
  private readonly counts: Float64Array;
  private readonly statuses: Float64Array;
  private readonly bins: Float64Array;
  private readonly mins: Float64Array;
  private readonly maxs: Float64Array;
  private totalSum = 0;
  readonly buckets: number;
  private readonly firstStart: number;

  constructor(
    startMs: number,
    endMs: number,
    private readonly intervalMs: number,
  ) {
    const layout = bucketLayout(startMs, endMs, intervalMs);
    if (layout.count > MAX_SUMMARY_BUCKETS) {
      throw new RangeError(`A summary is limited to ${MAX_SUMMARY_BUCKETS} buckets`);
    }
    this.buckets = layout.count;
    this.firstStart = layout.firstStart;
    this.counts = new Float64Array(this.buckets);
    this.statuses = new Float64Array(this.buckets * CLASSES);
    this.bins = new Float64Array(this.buckets * BIN_COUNT);
    this.mins = new Float64Array(this.buckets).fill(Number.POSITIVE_INFINITY);
    this.maxs = new Float64Array(this.buckets).fill(Number.NEGATIVE_INFINITY);
  }

  private bucketOf(timeMs: number): number {
    return Math.floor((timeMs - this.firstStart) / this.intervalMs);
  }

  addRecord(timeMs: number, status: number, durationMs: number): void {
    const bucket = this.bucketOf(timeMs);
    if (bucket < 0 || bucket >= this.buckets) return;
    this.counts[bucket]!++;
    this.statuses[bucket * CLASSES + statusClassOf(status)]!++;
    this.bins[bucket * BIN_COUNT + durationBin(durationMs)]!++;
    if (durationMs < this.mins[bucket]!) this.mins[bucket] = durationMs;
    if (durationMs > this.maxs[bucket]!) this.maxs[bucket] = durationMs;
    this.totalSum += durationMs;
  }

  /** A roll-up that starts at `timeMs` and lies inside one bucket; `bins` holds (bin, count) pairs. */
  addRollup(
    timeMs: number,
    statusClass: number,
    rollup: { n: number; sum: number; min: number; max: number; bins: Iterable<[number, number]> },
  ): void {
    const bucket = this.bucketOf(timeMs);
    if (bucket < 0 || bucket >= this.buckets || rollup.n === 0) return;
    this.counts[bucket]! += rollup.n;
    this.statuses[bucket * CLASSES + statusClass]! += rollup.n;
    for (const [bin, count] of rollup.bins) this.bins[bucket * BIN_COUNT + bin]! += count;
    if (rollup.min < this.mins[bucket]!) this.mins[bucket] = rollup.min;
    if (rollup.max > this.maxs[bucket]!) this.maxs[bucket] = rollup.max;
    this.totalSum += rollup.sum;
  }

  result(): MonitoringSummaryData {
    const totalBins = new Float64Array(BIN_COUNT);
    const totalStatus = new Float64Array(CLASSES);
    const bucketList: SummaryBucket[] = [];
    let totalCount = 0;
    let totalMin = Number.POSITIVE_INFINITY;
    let totalMax = Number.NEGATIVE_INFINITY;
    for (let bucket = 0; bucket < this.buckets; bucket++) {
      const count = this.counts[bucket]!;
      totalCount += count;
      for (let k = 0; k < CLASSES; k++) totalStatus[k]! += this.statuses[bucket * CLASSES + k]!;
      if (count > 0) {
        for (let bin = 0; bin < BIN_COUNT; bin++) totalBins[bin]! += this.bins[bucket * BIN_COUNT + bin]!;
        totalMin = Math.min(totalMin, this.mins[bucket]!);
        totalMax = Math.max(totalMax, this.maxs[bucket]!);
      }
      bucketList.push({
        start: new Date(this.firstStart + bucket * this.intervalMs).toISOString(),
        count,
        status: statusCounts(this.statuses, bucket * CLASSES),
        ...percentilesOf(this.bins, bucket * BIN_COUNT, count, this.mins[bucket]!, this.maxs[bucket]!),
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
        averageDurationMs: totalCount > 0 ? this.totalSum / totalCount : null,
      },
    };
  }
}

function statusCounts(values: Float64Array, offset: number): StatusCounts {
  const counts = {} as StatusCounts;
  STATUS_CLASSES.forEach((name, k) => {
    counts[name] = values[offset + k]!;
  });
  return counts;
}

function percentilesOf(
  bins: Float64Array,
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
