import type { AuditFilter } from '../audit-entry.js';
import type { CaseInsensitiveInterner } from './interners.js';
import type { ListIndex } from './list-index.js';
import type { RowColumns } from './row-columns.js';
import type { SortedRowList } from './sorted-row-list.js';

/**
 * Positions `low .. high` of `list` hold the candidates (time range applied by binary search); when `check`
 * is set, a candidate matches only if `check.column[row] === check.key` (the second name filter).
 */
export interface ScanPlan {
  list: SortedRowList;
  low: number;
  high: number;
  check: { column: Uint32Array; key: number } | undefined;
}

export interface FilterContext {
  columns: RowColumns;
  lists: ListIndex;
  actions: CaseInsensitiveInterner;
  users: CaseInsensitiveInterner;
}

/** Picks the cheapest list for `filter`; undefined when nothing can match (e.g. an unknown name). */
export function planScan(context: FilterContext, filter: AuditFilter): ScanPlan | undefined {
  const { columns, lists } = context;
  const action = filter.actionName === undefined ? undefined : context.actions.find(filter.actionName);
  const user = filter.userName === undefined ? undefined : context.users.find(filter.userName);
  if (
    (filter.actionName !== undefined && action === undefined) ||
    (filter.userName !== undefined && user === undefined)
  ) {
    return undefined;
  }
  const candidates: { list: SortedRowList; check: ScanPlan['check'] }[] = [];
  if (action !== undefined) {
    const list = lists.byAction[action];
    if (!list) return undefined;
    candidates.push({ list, check: user === undefined ? undefined : { column: columns.users, key: user } });
  }
  if (user !== undefined) {
    const list = lists.byUser[user];
    if (!list) return undefined;
    candidates.push({
      list,
      check: action === undefined ? undefined : { column: columns.actions, key: action },
    });
  }
  if (candidates.length === 0) candidates.push({ list: lists.order, check: undefined });
  let best: ScanPlan | undefined;
  for (const { list, check } of candidates) {
    const low = filter.startMs === undefined ? 0 : list.lowerBoundTime(filter.startMs);
    const high = filter.endMs === undefined ? list.length : list.lowerBoundTime(filter.endMs);
    const plan = { list, low, high: Math.max(low, high), check };
    if (!best || plan.high - plan.low < best.high - best.low) best = plan;
  }
  return best;
}

/** Rows of one page in list order and the exact number of matches. O(page) without `check`. */
export function selectPage(plan: ScanPlan, skip: number, take: number): { rows: number[]; total: number } {
  const { list, low, high, check } = plan;
  const rows: number[] = [];
  if (!check) {
    const total = high - low;
    for (let k = skip; k < Math.min(skip + take, total); k++) rows.push(list.rows[high - 1 - k]!);
    return { rows, total };
  }
  const { column, key } = check;
  let matched = 0;
  for (let position = high - 1; position >= low; position--) {
    const row = list.rows[position]!;
    if (column[row] !== key) continue;
    if (matched >= skip && matched < skip + take) rows.push(row);
    matched++;
  }
  return { rows, total: matched };
}

/** Up to `take` matching rows that come after the entry (timeMs, id) in list order, or from the top. */
export function selectAfter(
  plan: ScanPlan,
  after: { timeMs: number; id: number } | undefined,
  take: number,
): number[] {
  const { list, low, check } = plan;
  const high = after ? Math.min(plan.high, list.lowerBoundEntry(after.timeMs, after.id)) : plan.high;
  const rows: number[] = [];
  for (let position = high - 1; position >= low && rows.length < take; position--) {
    const row = list.rows[position]!;
    if (!check || check.column[row] === check.key) rows.push(row);
  }
  return rows;
}
