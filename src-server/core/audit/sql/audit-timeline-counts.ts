import { sql } from 'kysely';
import type { Tx } from '../../storage/database.js';
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
 * Entries per bucket and name key. Whole days come from the per-day count tables (a few rows per day and name,
 * whatever the trail's size), whole hours (per hour, and the partial days at a range's ends) from the per-hour
 * counts of the split's names, and only the partial hours at the ends from the rows. A filter the counts don't
 * hold (an instance, a resource, a search, or the other split's name: no per-hour pairs) groups the rows of the
 * range, read through the time index of the tenant, action, user or instance.
 */
export async function timelineCounts(
  reader: Reader,
  filter: SqlAuditFilter,
  interval: AuditTimelineInterval,
  splitBy: AuditTimelineSplit,
): Promise<TimelineCount[]> {
  const countable = Object.entries(filter).every(
    ([key, value]) => value === undefined || COUNTED_FILTERS.has(key),
  );
  const hourly = countable && (splitBy === 'action' ? filter.userName : filter.actionName) === undefined;
  const partly = (piece: SqlAuditFilter, bucketedBy: AuditTimelineInterval) =>
    hourly ? hourCounts(reader, piece, bucketedBy, splitBy) : rowCounts(reader, piece, bucketedBy, splitBy);
  if (interval === 'hour' || !countable) return await partly(filter, interval);
  const { whole, partial } = splitRange(filter.startMs, filter.endMs, DAY_MS);
  // One after the other: inside a transaction, the statements share one connection.
  const counts = whole ? await wholeDayCounts(reader, filter, splitBy, whole.first, whole.end) : [];
  for (const piece of partial) counts.push(...(await partly({ ...filter, ...piece }, 'day')));
  return counts;
}

/** The range's whole hours from the per-hour counts, its partial hours from the rows; bucketed per `interval`. */
async function hourCounts(
  reader: Reader,
  filter: SqlAuditFilter,
  interval: AuditTimelineInterval,
  splitBy: AuditTimelineSplit,
): Promise<TimelineCount[]> {
  const { whole, partial } = splitRange(filter.startMs, filter.endMs, HOUR_MS);
  const counts = whole
    ? await wholeHourCounts(reader, filter, splitBy, whole.first, whole.end, interval)
    : [];
  for (const piece of partial)
    counts.push(...(await rowCounts(reader, { ...filter, ...piece }, interval, splitBy)));
  return counts;
}

async function wholeHourCounts(
  reader: Reader,
  filter: SqlAuditFilter,
  splitBy: AuditTimelineSplit,
  first: number | undefined,
  end: number | undefined,
  interval: AuditTimelineInterval,
): Promise<TimelineCount[]> {
  const tenant = tenantOf(filter);
  const table = splitBy === 'action' ? 'audit_action_hour_counts' : 'audit_user_hour_counts';
  const key = splitBy === 'action' ? 'action_key' : 'user_key';
  const name = splitBy === 'action' ? filter.actionName : filter.userName;
  const rows = await reader
    .selectFrom(table)
    .select((eb) => ['hour', sql.ref<string>(key).as('key'), eb.fn.sum<number>('n').as('n')])
    .$if(tenant !== undefined, (q) => q.where('tenant', '=', tenant!))
    .$if(name !== undefined, (q) => q.where(sql.ref(key), '=', nameKey(name!)))
    .$if(first !== undefined, (q) => q.where('hour', '>=', first!))
    .$if(end !== undefined, (q) => q.where('hour', '<', end!))
    .groupBy(['hour', sql.ref(key)])
    .execute();
  const hoursPerBucket = intervalMs(interval) / HOUR_MS;
  return rows.map((row) => ({ bucket: Math.floor(row.hour / hoursPerBucket), key: row.key, n: row.n }));
}

async function rowCounts(
  reader: Reader,
  filter: SqlAuditFilter,
  interval: AuditTimelineInterval,
  splitBy: AuditTimelineSplit,
): Promise<TimelineCount[]> {
  // Integer division on both engines (times are positive); a literal, so select and group by are one expression.
  const bucket = sql<number>`time_ms / ${sql.lit(intervalMs(interval))}`;
  const key = splitBy === 'action' ? 'action_key' : 'user_key';
  const rows = await filteredEntries(reader, filter)
    .select((eb) => [bucket.as('bucket'), eb.ref(key).as('key'), eb.fn.countAll<number>().as('n')])
    .groupBy([bucket, key])
    .execute();
  return rows.map((row) => ({ bucket: row.bucket, key: row.key, n: row.n }));
}

/** Whole days [first, end) from the count table that holds the split and the filter's names. */
async function wholeDayCounts(
  reader: Reader,
  filter: SqlAuditFilter,
  splitBy: AuditTimelineSplit,
  first: number | undefined,
  end: number | undefined,
): Promise<TimelineCount[]> {
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
  const rows = await reader
    .selectFrom(table)
    .select((eb) => ['day', sql.ref<string>(key).as('key'), eb.fn.sum<number>('n').as('n')])
    .$if(tenant !== undefined, (q) => q.where('tenant', '=', tenant!))
    .$if(action !== undefined, (q) => q.where(sql.ref('action_key'), '=', action!))
    .$if(user !== undefined, (q) => q.where(sql.ref('user_key'), '=', user!))
    .$if(first !== undefined, (q) => q.where('day', '>=', first!))
    .$if(end !== undefined, (q) => q.where('day', '<', end!))
    .groupBy(['day', sql.ref(key)])
    .execute();
  return rows.map((row) => ({ bucket: row.day, key: row.key, n: row.n }));
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
