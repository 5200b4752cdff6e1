import { sql, type SelectQueryBuilder } from 'kysely';
import type { Tx } from '../../storage/database.js';
import type { GatehouseSchema } from '../../storage/schema.js';
import { DAY_MS, HOUR_MS, splitRange } from '../../storage/time-buckets.js';
import {
  intervalMs,
  type AuditTimelineInterval,
  type AuditTimelineSplit,
  type TimelineCount,
} from '../audit-timeline.js';
import { filteredEntries, tenantOf, type SqlAuditFilter } from './audit-counts.js';
import { nameKey } from './audit-rows.js';

type Reader = Pick<Tx, 'selectFrom'>;

/** The filters the per-day count tables can answer; any other (e.g. an instance) is counted from the rows. */
const COUNTED_FILTERS = new Set<string>(['tenant', 'startMs', 'endMs', 'actionName', 'userName', 'engine']);

/**
 * One piece of a timeline's range counted per bucket and name key, from a count table or the rows. A count
 * table's rows go as they are (summed by the statement over the pieces: a day or hour and name of a table is one
 * row per tenant), so a count is sorted once, not once per piece and again for the sum.
 */
type CellQuery = SelectQueryBuilder<
  GatehouseSchema,
  keyof GatehouseSchema,
  { bucket: number; key: string; n: number }
>;

/**
 * Each name key's total over the range: what ranks the series. One statement, whatever the pieces (on PostgreSQL
 * each statement is a round trip); the database sums them, so only a row per name comes back.
 */
export async function timelineTotals(
  reader: Reader,
  filter: SqlAuditFilter,
  interval: AuditTimelineInterval,
  splitBy: AuditTimelineSplit,
): Promise<TimelineCount[]> {
  const cells = unionOf(cellQueries(reader, filter, interval, splitBy));
  if (!cells) return [];
  const rows = await reader
    .selectFrom(cells.as('cells'))
    .select((eb) => ['key', eb.fn.sum<number>('n').as('n')])
    .groupBy('key')
    .execute();
  return rows.map((row) => ({ bucket: 0, key: row.key, n: row.n }));
}

/**
 * Entries per bucket and name key, the names not in `shown` summed as one (key null: "Other"); every name when
 * `shown` is absent. Summed in the database: a row costs ~1 µs to hand over, more than the count tables' index
 * entries it sums (24 hours by user are ~3,000 cells of hour and user over 1M entries; 8 series of 24 buckets).
 */
export async function timelineCounts(
  reader: Reader,
  filter: SqlAuditFilter,
  interval: AuditTimelineInterval,
  splitBy: AuditTimelineSplit,
  shown?: readonly string[],
): Promise<TimelineCount[]> {
  const cells = unionOf(cellQueries(reader, filter, interval, splitBy));
  if (!cells) return [];
  // A name of its own or null; aliased apart from the cells' `key`, which GROUP BY would otherwise mean.
  const series =
    shown === undefined || shown.length === 0
      ? sql<string | null>`${sql.ref('key')}`
      : sql<
          string | null
        >`case when ${sql.ref('key')} in (${sql.join([...shown])}) then ${sql.ref('key')} end`;
  const rows = await reader
    .selectFrom(cells.as('cells'))
    .select((eb) => ['bucket', series.as('series'), eb.fn.sum<number>('n').as('n')])
    .groupBy(['bucket', sql.ref('series')])
    .execute();
  return rows.map((row) => ({ bucket: row.bucket, key: row.series, n: row.n }));
}

function unionOf(queries: CellQuery[]): CellQuery | undefined {
  const [head, ...rest] = queries;
  if (!head) return undefined;
  let union = head;
  for (const next of rest) union = union.unionAll(next);
  return union;
}

/**
 * The pieces of the range. Whole days come from the per-day count tables (a few rows per day and name, whatever
 * the trail's size), whole hours (per hour, and the partial days at a range's ends) from the per-hour counts of
 * the split's names, and only the partial hours at the ends from the rows. A filter the counts don't hold (an
 * instance, a resource, a search, or the other split's name: no per-hour pairs) groups the rows of the range,
 * read through the time index of the tenant, action, user or instance.
 */
function cellQueries(
  reader: Reader,
  filter: SqlAuditFilter,
  interval: AuditTimelineInterval,
  splitBy: AuditTimelineSplit,
): CellQuery[] {
  const countable = Object.entries(filter).every(
    ([key, value]) => value === undefined || COUNTED_FILTERS.has(key),
  );
  const hourly = countable && (splitBy === 'action' ? filter.userName : filter.actionName) === undefined;
  const partly = (piece: SqlAuditFilter, bucketedBy: AuditTimelineInterval) =>
    hourly ? hourCounts(reader, piece, bucketedBy, splitBy) : [rowCounts(reader, piece, bucketedBy, splitBy)];
  if (interval === 'hour' || !countable) return partly(filter, interval);
  const { whole, partial } = splitRange(filter.startMs, filter.endMs, DAY_MS);
  const queries = whole ? [wholeDayCounts(reader, filter, splitBy, whole.first, whole.end)] : [];
  for (const piece of partial) queries.push(...partly({ ...filter, ...piece }, 'day'));
  return queries;
}

/** The range's whole hours from the per-hour counts, its partial hours from the rows; bucketed per `interval`. */
function hourCounts(
  reader: Reader,
  filter: SqlAuditFilter,
  interval: AuditTimelineInterval,
  splitBy: AuditTimelineSplit,
): CellQuery[] {
  const { whole, partial } = splitRange(filter.startMs, filter.endMs, HOUR_MS);
  const queries = whole ? [wholeHourCounts(reader, filter, splitBy, whole.first, whole.end, interval)] : [];
  for (const piece of partial) queries.push(rowCounts(reader, { ...filter, ...piece }, interval, splitBy));
  return queries;
}

function wholeHourCounts(
  reader: Reader,
  filter: SqlAuditFilter,
  splitBy: AuditTimelineSplit,
  first: number | undefined,
  end: number | undefined,
  interval: AuditTimelineInterval,
): CellQuery {
  const tenant = tenantOf(filter);
  const table = splitBy === 'action' ? 'audit_action_hour_counts' : 'audit_user_hour_counts';
  const key = splitBy === 'action' ? 'action_key' : 'user_key';
  const name = splitBy === 'action' ? filter.actionName : filter.userName;
  // Integer division on both engines (hours are positive); a literal, so select and group by are one expression.
  const bucket = sql<number>`hour / ${sql.lit(intervalMs(interval) / HOUR_MS)}`;
  return reader
    .selectFrom(table)
    .select([bucket.as('bucket'), sql.ref<string>(key).as('key'), 'n'])
    .$if(tenant !== undefined, (q) => q.where('tenant', '=', tenant!))
    .$if(name !== undefined, (q) => q.where(sql.ref(key), '=', nameKey(name!)))
    .$if(first !== undefined, (q) => q.where('hour', '>=', first!))
    .$if(end !== undefined, (q) => q.where('hour', '<', end!));
}

function rowCounts(
  reader: Reader,
  filter: SqlAuditFilter,
  interval: AuditTimelineInterval,
  splitBy: AuditTimelineSplit,
): CellQuery {
  // Integer division on both engines (times are positive); a literal, so select and group by are one expression.
  const bucket = sql<number>`time_ms / ${sql.lit(intervalMs(interval))}`;
  const key = splitBy === 'action' ? 'action_key' : 'user_key';
  return filteredEntries(reader, filter)
    .select((eb) => [bucket.as('bucket'), eb.ref(key).as('key'), eb.fn.countAll<number>().as('n')])
    .groupBy([bucket, key]);
}

/** Whole days [first, end) from the count table that holds the split and the filter's names. */
function wholeDayCounts(
  reader: Reader,
  filter: SqlAuditFilter,
  splitBy: AuditTimelineSplit,
  first: number | undefined,
  end: number | undefined,
): CellQuery {
  const action = filter.actionName === undefined ? undefined : nameKey(filter.actionName);
  const user = filter.userName === undefined ? undefined : nameKey(filter.userName);
  const tenant = tenantOf(filter);
  // Split by action with a user named (or by user with an action named) needs the pairs' table.
  const paired = splitBy === 'action' ? user !== undefined : action !== undefined;
  const table = paired
    ? 'audit_action_user_day_counts'
    : splitBy === 'action'
      ? 'audit_action_day_counts'
      : 'audit_user_day_counts';
  const key = splitBy === 'action' ? 'action_key' : 'user_key';
  return reader
    .selectFrom(table)
    .select(['day as bucket', sql.ref<string>(key).as('key'), 'n'])
    .$if(tenant !== undefined, (q) => q.where('tenant', '=', tenant!))
    .$if(action !== undefined, (q) => q.where(sql.ref('action_key'), '=', action!))
    .$if(user !== undefined, (q) => q.where(sql.ref('user_key'), '=', user!))
    .$if(first !== undefined, (q) => q.where('day', '>=', first!))
    .$if(end !== undefined, (q) => q.where('day', '<', end!));
}

/** The names as first spelled of these keys (the counts keep them); a key without one stands for itself. */
export async function timelineNames(
  reader: Reader,
  filter: SqlAuditFilter,
  splitBy: AuditTimelineSplit,
  keys: readonly string[],
): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const tenant = tenantOf(filter);
  const rows =
    splitBy === 'action'
      ? await reader
          .selectFrom('audit_action_day_counts')
          .select((eb) => ['action_key as key', eb.fn.min<string>('action_name').as('name')])
          .where('action_key', 'in', [...keys])
          .$if(tenant !== undefined, (q) => q.where('tenant', '=', tenant!))
          .groupBy('action_key')
          .execute()
      : await reader
          .selectFrom('audit_user_day_counts')
          .select((eb) => ['user_key as key', eb.fn.min<string>('user_name').as('name')])
          .where('user_key', 'in', [...keys])
          .$if(tenant !== undefined, (q) => q.where('tenant', '=', tenant!))
          .groupBy('user_key')
          .execute();
  return new Map(rows.map((row) => [row.key, row.name]));
}
