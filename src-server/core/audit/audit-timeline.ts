import type {
  AuditTimeline,
  AuditTimelineInterval,
  AuditTimelineSplit,
} from '../contracts/audit-timeline-schemas.js';
import { DAY_MS, HOUR_MS } from '../storage/time-buckets.js';

export type { AuditTimeline, AuditTimelineInterval, AuditTimelineSplit };

/** Hour buckets serve ranges up to this long by default; longer ones are counted per day. */
export const HOURLY_RANGE_DEFAULT_MS = 2 * DAY_MS;
/** The longest range that may be asked for per hour (its rows are grouped from the rows themselves). */
export const HOURLY_RANGE_MAX_MS = 7 * DAY_MS;
/** Names shown as series of their own; the rest is summed as "Other". */
export const TIMELINE_SERIES_MAX = 8;
/**
 * Leading empty buckets are dropped past this many (a range starting years before the first entry); a trail that
 * still spans more keeps only its non-empty buckets.
 */
const DENSE_BUCKETS_MAX = 1000;

export const OTHER_SERIES = 'Other';

export function intervalMs(interval: AuditTimelineInterval): number {
  return interval === 'hour' ? HOUR_MS : DAY_MS;
}

/** Per hour for a range with a start within two days of its end (or now), per day otherwise. */
export function chooseInterval(
  startMs: number | undefined,
  endMs: number | undefined,
  now: number,
): AuditTimelineInterval {
  if (startMs === undefined) return 'day';
  return (endMs ?? now) - startMs <= HOURLY_RANGE_DEFAULT_MS ? 'hour' : 'day';
}

/**
 * One counted cell: entries of one name key in one bucket (`bucket * intervalMs` is its start). Key null: the
 * names not shown as series of their own, counted together ("Other").
 */
export interface TimelineCount {
  bucket: number;
  key: string | null;
  n: number;
}

/**
 * The timeline from counted cells: the busiest names as series (their display names from `nameOf`), the rest as
 * "Other", and every bucket of the range, empty ones included, oldest first.
 */
export function shapeTimeline(options: {
  interval: AuditTimelineInterval;
  splitBy: AuditTimelineSplit;
  startMs: number | undefined;
  endMs: number | undefined;
  now: number;
  counts: readonly TimelineCount[];
  names: ReadonlyMap<string, string>;
}): AuditTimeline {
  const { interval, splitBy, counts, names } = options;
  const size = intervalMs(interval);
  let total = 0;
  let minPresent = Infinity;
  let maxPresent = -Infinity;
  for (const { bucket, n } of counts) {
    if (n <= 0) continue;
    total += n;
    minPresent = Math.min(minPresent, bucket);
    maxPresent = Math.max(maxPresent, bucket);
  }
  const { ranked, shown } = rankSeries(counts);
  const indexOf = new Map(shown.map(([key], index) => [key, index]));
  const series: AuditTimeline['series'] = shown.map(([key, n]) => ({
    name: names.get(key) ?? key,
    total: n,
  }));
  const others = ranked.length > shown.length || counts.some(({ key, n }) => key === null && n > 0);
  const otherIndex = others ? series.length : -1;
  if (otherIndex >= 0) series.push({ name: OTHER_SERIES, other: true, total: total - sum(shown) });

  const range = bucketRange(size, options.startMs, options.endMs, options.now, minPresent, maxPresent);
  if (!range) return { interval, splitBy, total, series, buckets: [] };
  const cells = new Map<number, AuditTimeline['buckets'][number]>();
  const cellOf = (bucket: number) => {
    let cell = cells.get(bucket);
    if (!cell) {
      cell = {
        start: new Date(bucket * size).toISOString(),
        end: new Date((bucket + 1) * size).toISOString(),
        total: 0,
        counts: series.map(() => 0),
      };
      cells.set(bucket, cell);
    }
    return cell;
  };
  if (!range.sparse) for (let bucket = range.first; bucket <= range.last; bucket++) cellOf(bucket);
  for (const { bucket, key, n } of counts) {
    if (n <= 0 || bucket < range.first || bucket > range.last) continue;
    const cell = cellOf(bucket);
    cell.total += n;
    cell.counts[(key === null ? undefined : indexOf.get(key)) ?? otherIndex]! += n;
  }
  const buckets = [...cells.entries()].sort((a, b) => a[0] - b[0]).map(([, cell]) => cell);
  return { interval, splitBy, total, series, buckets };
}

/** Every name key by its total, busiest first, and those shown as series of their own (the rest is Other). */
export function rankSeries(counts: readonly TimelineCount[]): {
  ranked: [string, number][];
  shown: [string, number][];
} {
  const totals = new Map<string, number>();
  for (const { key, n } of counts) if (n > 0 && key !== null) totals.set(key, (totals.get(key) ?? 0) + n);
  const ranked = [...totals.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const shown = ranked.length > TIMELINE_SERIES_MAX ? ranked.slice(0, TIMELINE_SERIES_MAX - 1) : ranked;
  return { ranked, shown };
}

function sum(ranked: readonly [string, number][]): number {
  return ranked.reduce((acc, [, n]) => acc + n, 0);
}

function bucketRange(
  size: number,
  startMs: number | undefined,
  endMs: number | undefined,
  now: number,
  minPresent: number,
  maxPresent: number,
): { first: number; last: number; sparse: boolean } | undefined {
  const any = Number.isFinite(minPresent);
  // Nothing matched and nothing says where the range starts: no buckets to draw.
  if (!any && startMs === undefined) return undefined;
  const last =
    endMs !== undefined
      ? Math.ceil(endMs / size) - 1
      : Math.max(any ? maxPresent : -Infinity, startMs !== undefined ? Math.floor(now / size) : -Infinity);
  let first = startMs !== undefined ? Math.floor(startMs / size) : any ? minPresent : last;
  if (!Number.isFinite(last) || !Number.isFinite(first) || last < first) return undefined;
  if (last - first >= DENSE_BUCKETS_MAX) first = any ? Math.min(minPresent, last) : last;
  return { first, last, sparse: last - first >= DENSE_BUCKETS_MAX };
}
