import type { MonitoringFilter } from '../monitoring-store.js';
import type { MonitoringIndex } from './monitoring-index.js';
import { RowMatcher } from './row-matcher.js';

/** Positions `low .. high` of the time order hold the rows of the time range; `matcher` checks the rest. */
export interface ScanPlan {
  low: number;
  high: number;
  matcher: RowMatcher;
}

/** Undefined when nothing can match. */
export function planScan(index: MonitoringIndex, filter: MonitoringFilter): ScanPlan | undefined {
  const matcher = RowMatcher.compile(index, filter);
  if (!matcher) return undefined;
  const { order } = index;
  const low = filter.startMs === undefined ? 0 : order.lowerBound(filter.startMs);
  const high = filter.endMs === undefined ? order.length : order.lowerBound(filter.endMs);
  return { low, high: Math.max(low, high), matcher };
}

/**
 * Rows of one page, newest first, and the exact number of matches. O(page) when only the time range
 * filters; otherwise one pass over the range (a million rows take a few milliseconds).
 */
export function selectPage(
  index: MonitoringIndex,
  plan: ScanPlan,
  skip: number,
  take: number,
): { rows: number[]; total: number } {
  const { low, high, matcher } = plan;
  const order = index.order.rows;
  const rows: number[] = [];
  if (!matcher.active) {
    const total = high - low;
    for (let k = skip; k < Math.min(skip + take, total); k++) rows.push(order[high - 1 - k]!);
    return { rows, total };
  }
  const end = skip + take;
  let matched = 0;
  for (let position = high - 1; position >= low; position--) {
    const row = order[position]!;
    if (!matcher.matches(row)) continue;
    if (matched >= skip && matched < end) rows.push(row);
    matched++;
  }
  return { rows, total: matched };
}
