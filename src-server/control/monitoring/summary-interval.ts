import { enumParam } from '../../core/http/query-params.js';
import { validationProblem } from '../../core/http/problem.js';
import { bucketLayout } from '../../core/monitoring/summary-accumulator.js';
import { SUMMARY_INTERVAL_NAMES, type SummaryInterval } from '../../core/contracts/monitoring-schemas.js';

export const SUMMARY_INTERVALS = {
  '1m': 60_000,
  '5m': 5 * 60_000,
  '1h': 60 * 60_000,
  '1d': 24 * 60 * 60_000,
} as const satisfies Record<SummaryInterval, number>;
export type { SummaryInterval };

export const MAX_SUMMARY_BUCKETS_PER_REQUEST = 500;
/** The default range of a summary without `startDateTimeUtc`: the last day. */
export const DEFAULT_SUMMARY_RANGE_MS = SUMMARY_INTERVALS['1d'];

export const INTERVAL_PARAM = enumParam({
  description: `Bucket width: 1m, 5m, 1h or 1d; \`auto\` (the default) picks the smallest that keeps the range within ${MAX_SUMMARY_BUCKETS_PER_REQUEST} buckets.`,
  values: ['auto', ...SUMMARY_INTERVAL_NAMES] as const,
});

/** The interval to use for a range; 400 naming `interval` when an explicit one needs too many buckets. */
export function resolveInterval(
  requested: SummaryInterval | 'auto' | undefined,
  startMs: number,
  endMs: number,
): SummaryInterval {
  const bucketsOf = (interval: SummaryInterval): number =>
    bucketLayout(startMs, endMs, SUMMARY_INTERVALS[interval]).count;
  if (requested !== undefined && requested !== 'auto') {
    const buckets = bucketsOf(requested);
    if (buckets > MAX_SUMMARY_BUCKETS_PER_REQUEST) {
      throw validationProblem({
        interval: [
          `The range needs ${buckets} buckets of ${requested}; at most ${MAX_SUMMARY_BUCKETS_PER_REQUEST} are allowed. Choose a larger interval, a shorter range, or auto.`,
        ],
      });
    }
    return requested;
  }
  const fitting = (Object.keys(SUMMARY_INTERVALS) as SummaryInterval[]).find(
    (interval) => bucketsOf(interval) <= MAX_SUMMARY_BUCKETS_PER_REQUEST,
  );
  if (!fitting) {
    throw validationProblem({
      startDateTimeUtc: [
        `The range is too long for a summary: at most ${MAX_SUMMARY_BUCKETS_PER_REQUEST} days with the 1d interval.`,
      ],
    });
  }
  return fitting;
}
