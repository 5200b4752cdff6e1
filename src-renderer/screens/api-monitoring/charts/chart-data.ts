import type {
  MonitoringFilter,
  MonitoringStatusClass,
  MonitoringSummary,
  MonitoringSummaryInterval,
} from '../../../api/types.js';
import { valuesOf } from '../../../api/contract-values.js';

export const INTERVAL_LABEL: Record<MonitoringSummaryInterval, string> = {
  '1m': 'per minute',
  '5m': 'per 5 minutes',
  '1h': 'per hour',
  '1d': 'per day',
};

/** A bucket's start in UTC, as precise as its interval needs. */
export function bucketLabel(iso: string, interval: MonitoringSummaryInterval): string {
  const text = new Date(iso).toISOString();
  if (interval === '1d') return text.slice(0, 10);
  if (interval === '1h') return `${text.slice(5, 10)} ${text.slice(11, 16)}`;
  return text.slice(11, 16);
}

/** In chart order; a status class added to the contract breaks the typecheck here. */
export const STATUS_CLASSES = valuesOf<MonitoringStatusClass>({
  '2xx': true,
  '3xx': true,
  '4xx': true,
  '5xx': true,
  '1xx': true,
  other: true,
});

/** 2xx to 5xx always; 1xx and "no status" only when they occurred. */
export function shownStatusClasses(summary: MonitoringSummary): MonitoringStatusClass[] {
  return STATUS_CLASSES.filter(
    (statusClass) => !['1xx', 'other'].includes(statusClass) || summary.totals.status[statusClass] > 0,
  );
}

export function formatMs(value: number | null): string {
  if (value === null) return '—';
  return value < 10
    ? `${value.toFixed(2)} ms`
    : value < 1000
      ? `${value.toFixed(1)} ms`
      : `${(value / 1000).toFixed(2)} s`;
}

const INTERVAL_MS: Record<MonitoringSummaryInterval, number> = {
  '1m': 60_000,
  '5m': 5 * 60_000,
  '1h': 60 * 60_000,
  '1d': 24 * 60 * 60_000,
};
const MAX_CHART_BUCKETS = 200;
/** The summary's own default range when the filter has no start. */
const DEFAULT_SUMMARY_RANGE_MS = INTERVAL_MS['1d'];

/**
 * The finest interval that keeps the chart readable (at most 200 bars), rather than the API's `auto`, which
 * allows 500: 24 hours become 24 hourly bars, not 288 thin ones. `auto` when even days are too many.
 */
export function chartInterval(filter: MonitoringFilter, nowMs: number): MonitoringSummaryInterval | 'auto' {
  const endMs = filter.endDateTimeUtc ? Date.parse(filter.endDateTimeUtc) : nowMs;
  const startMs = filter.startDateTimeUtc
    ? Date.parse(filter.startDateTimeUtc)
    : endMs - DEFAULT_SUMMARY_RANGE_MS;
  const span = Math.max(0, endMs - startMs);
  const fitting = (Object.keys(INTERVAL_MS) as MonitoringSummaryInterval[]).find(
    (interval) => Math.ceil(span / INTERVAL_MS[interval]) + 1 <= MAX_CHART_BUCKETS,
  );
  return fitting ?? 'auto';
}

/** About a dozen axis ticks, whatever the number of buckets. */
export function everyNthTick(bucketCount: number): (value: unknown, index: number) => boolean {
  const step = Math.max(1, Math.ceil(bucketCount / 12));
  return (_value, index) => index % step === 0;
}

/** A mark only where a point has no neighbour to draw a line to; otherwise it would not show at all. */
export function isolatedPoint(values: readonly (number | null)[]): (params: { index: number }) => boolean {
  return ({ index }) =>
    values[index] !== null && (values[index - 1] ?? null) === null && (values[index + 1] ?? null) === null;
}
