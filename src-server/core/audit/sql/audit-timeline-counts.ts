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
  { bucket: number; key: string | null; n: number }
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
  const cells = unionOf(cellQueries(reader, filter, interval, splitBy, shown));
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
 * read through the time index of the tenant, action, user or instance. With `shown`, the cells of a filter
 * without names read only the shown names' counts (`seriesOf`).
 */
function cellQueries(
  reader: Reader,
  filter: SqlAuditFilter,
  interval: AuditTimelineInterval,
  splitBy: AuditTimelineSplit,
  shown?: readonly string[],
): CellQuery[] {
  const countable = Object.entries(filter).every(
    ([key, value]) => value === undefined || COUNTED_FILTERS.has(key),
  );
  const hourly = countable && (splitBy === 'action' ? filter.userName : filter.actionName) === undefined;
  const series =
    countable && filter.actionName === undefined && filter.userName === undefined ? shown : undefined;
  const partly = (piece: SqlAuditFilter, bucketedBy: AuditTimelineInterval) =>
    hourly
      ? hourCounts(reader, piece, bucketedBy, splitBy, series)
      : [rowCounts(reader, piece, bucketedBy, splitBy)];
  if (interval === 'hour' || !countable) return partly(filter, interval);
  const { whole, partial } = splitRange(filter.startMs, filter.endMs, DAY_MS);
  const queries = whole ? wholeDayCounts(reader, filter, splitBy, whole.first, whole.end, series) : [];
  for (const piece of partial) queries.push(...partly({ ...filter, ...piece }, 'day'));
  return queries;
}

/**
 * The range's whole hours from the per-hour counts, its partial hours from the rows; bucketed per `interval`. A
 * partial hour that is most of its hour is counted as the whole hour less the rows of the rest of it: at most
 * half an hour of rows is read at each end (~350 over 1M entries), not up to a whole hour's.
 */
function hourCounts(
  reader: Reader,
  filter: SqlAuditFilter,
  interval: AuditTimelineInterval,
  splitBy: AuditTimelineSplit,
  shown: readonly string[] | undefined,
): CellQuery[] {
  const { whole, partial } = splitRange(filter.startMs, filter.endMs, HOUR_MS);
  let hours = whole;
  const added: { startMs: number; endMs: number }[] = [];
  const subtracted: { startMs: number; endMs: number }[] = [];
  for (const piece of partial) {
    const hour = Math.floor(piece.startMs / HOUR_MS);
    const withinOneHour = hour === Math.floor((piece.endMs - 1) / HOUR_MS);
    const rest = HOUR_MS - (piece.endMs - piece.startMs);
    // Only an hour next to the whole hours (or the range's only hour) joins them as one range of hours.
    const adjacent = hours === undefined || hours.first === hour + 1 || hours.end === hour;
    if (!withinOneHour || rest >= HOUR_MS / 2 || !adjacent) {
      added.push(piece);
      continue;
    }
    hours = {
      first: hours === undefined || hours.first === hour + 1 ? hour : hours.first,
      end: hours === undefined || hours.end === hour ? hour + 1 : hours.end,
    };
    if (piece.startMs > hour * HOUR_MS) subtracted.push({ startMs: hour * HOUR_MS, endMs: piece.startMs });
    if (piece.endMs < (hour + 1) * HOUR_MS)
      subtracted.push({ startMs: piece.endMs, endMs: (hour + 1) * HOUR_MS });
  }
  const queries = hours
    ? wholeHourCounts(reader, filter, splitBy, hours.first, hours.end, interval, shown)
    : [];
  for (const piece of added) queries.push(rowCounts(reader, { ...filter, ...piece }, interval, splitBy));
  for (const piece of subtracted)
    queries.push(rowCounts(reader, { ...filter, ...piece }, interval, splitBy, { subtract: true }));
  return queries;
}

function wholeHourCounts(
  reader: Reader,
  filter: SqlAuditFilter,
  splitBy: AuditTimelineSplit,
  first: number | undefined,
  end: number | undefined,
  interval: AuditTimelineInterval,
  shown: readonly string[] | undefined,
): CellQuery[] {
  const tenant = tenantOf(filter);
  const table = splitBy === 'action' ? 'audit_action_hour_counts' : 'audit_user_hour_counts';
  const key = splitBy === 'action' ? 'action_key' : 'user_key';
  const name = splitBy === 'action' ? filter.actionName : filter.userName;
  // Integer division on both engines (hours are positive); a literal, so select and group by are one expression.
  const bucket = sql<number>`hour / ${sql.lit(intervalMs(interval) / HOUR_MS)}`;
  const inRange = <Q extends SelectQueryBuilder<GatehouseSchema, typeof table | 'audit_hour_counts', object>>(
    query: Q,
  ): Q =>
    query
      .$if(tenant !== undefined, (q) => q.where('tenant', '=', tenant!))
      .$if(first !== undefined, (q) => q.where('hour', '>=', first!))
      .$if(end !== undefined, (q) => q.where('hour', '<', end!)) as Q;
  if (shown !== undefined && shown.length > 0) {
    const all = inRange(reader.selectFrom('audit_hour_counts')).select([
      bucket.as('bucket'),
      sql<string | null>`null`.as('key'),
      'n',
    ]);
    return seriesOf(all, inRange(reader.selectFrom(table)), bucket, key, shown);
  }
  return [
    inRange(reader.selectFrom(table))
      .select([bucket.as('bucket'), sql.ref<string>(key).as('key'), 'n'])
      .$if(name !== undefined, (q) => q.where(sql.ref(key), '=', nameKey(name!))),
  ];
}

/**
 * The cells of the shown names and "Other" without reading the other names' counts: every entry of each bucket
 * (`all`, key null), each shown name's counts, and the same counts again, negated, under key null. Summed per
 * bucket and series, null is the bucket's total less the shown names': the other names' count.
 */
function seriesOf(
  all: CellQuery,
  named: SelectQueryBuilder<GatehouseSchema, keyof GatehouseSchema, object>,
  bucket: ReturnType<typeof sql<number>>,
  key: 'action_key' | 'user_key',
  shown: readonly string[],
): CellQuery[] {
  const ofShown = named.where(sql.ref(key), 'in', [...shown]);
  return [
    all,
    ofShown.select([
      bucket.as('bucket'),
      sql.ref<string | null>(key).as('key'),
      sql.ref<number>('n').as('n'),
    ]),
    ofShown.select([bucket.as('bucket'), sql<string | null>`null`.as('key'), sql<number>`-n`.as('n')]),
  ];
}

/** The rows' counts per bucket and name; negated with `subtract` (the rest of an hour counted whole). */
function rowCounts(
  reader: Reader,
  filter: SqlAuditFilter,
  interval: AuditTimelineInterval,
  splitBy: AuditTimelineSplit,
  { subtract = false }: { subtract?: boolean } = {},
): CellQuery {
  // Integer division on both engines (times are positive); a literal, so select and group by are one expression.
  const bucket = sql<number>`time_ms / ${sql.lit(intervalMs(interval))}`;
  const key = splitBy === 'action' ? 'action_key' : 'user_key';
  const n = subtract ? sql<number>`-count(*)` : sql<number>`count(*)`;
  return filteredEntries(reader, filter)
    .select((eb) => [bucket.as('bucket'), eb.ref(key).as('key'), n.as('n')])
    .groupBy([bucket, key]);
}

/** Whole days [first, end) from the count table that holds the split and the filter's names. */
function wholeDayCounts(
  reader: Reader,
  filter: SqlAuditFilter,
  splitBy: AuditTimelineSplit,
  first: number | undefined,
  end: number | undefined,
  shown: readonly string[] | undefined,
): CellQuery[] {
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
  const inRange = <Q extends SelectQueryBuilder<GatehouseSchema, typeof table | 'audit_day_counts', object>>(
    query: Q,
  ): Q =>
    query
      .$if(tenant !== undefined, (q) => q.where('tenant', '=', tenant!))
      .$if(first !== undefined, (q) => q.where('day', '>=', first!))
      .$if(end !== undefined, (q) => q.where('day', '<', end!)) as Q;
  const bucket = sql<number>`day`;
  if (shown !== undefined && shown.length > 0) {
    const all = inRange(reader.selectFrom('audit_day_counts')).select([
      bucket.as('bucket'),
      sql<string | null>`null`.as('key'),
      'n',
    ]);
    return seriesOf(all, inRange(reader.selectFrom(table)), bucket, key, shown);
  }
  return [
    inRange(reader.selectFrom(table))
      .select(['day as bucket', sql.ref<string>(key).as('key'), 'n'])
      .$if(action !== undefined, (q) => q.where(sql.ref('action_key'), '=', action!))
      .$if(user !== undefined, (q) => q.where(sql.ref('user_key'), '=', user!)),
  ];
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
