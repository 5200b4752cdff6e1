import { sql, type SelectQueryBuilder } from 'kysely';
import type { Db, Tx } from '../../storage/database.js';
import { runTemplated } from '../../storage/query-templates.js';
import type { GatehouseSchema } from '../../storage/schema.js';
import { DAY_MS, HOUR_MS, splitRange, type WholeBuckets } from '../../storage/time-buckets.js';
import {
  intervalMs,
  TIMELINE_SERIES_MAX,
  type AuditTimelineInterval,
  type AuditTimelineSplit,
  type TimelineCount,
} from '../audit-timeline.js';
import {
  entriesWhere,
  entryConditions,
  filteredEntries,
  type EntryConditions,
  type SqlAuditFilter,
} from './audit-filter-sql.js';

type Reader = Db | Tx;

/** The filters the per-day count tables can answer; any other (e.g. an instance) is counted from the rows. */
const COUNTED_FILTERS = new Set<string>(['tenant', 'startMs', 'endMs', 'actionName', 'userName', 'engine']);

/** A split of the timeline, or none: every name's entries of a bucket together (`audit_day_counts`, `audit_hour_counts`). */
type Split = AuditTimelineSplit | 'none';

function countable(filter: SqlAuditFilter): boolean {
  return Object.entries(filter).every(([key, value]) => value === undefined || COUNTED_FILTERS.has(key));
}

/** Whether the counts without a split hold the filter's entries: no name narrows them (nor anything the rows hold). */
function unsplit(filter: SqlAuditFilter): boolean {
  return countable(filter) && filter.actionName === undefined && filter.userName === undefined;
}

/** The key column of a split; none: a null key (text on both engines). */
function keyOf(splitBy: Split) {
  if (splitBy === 'none') return sql<string | null>`cast(null as text)`;
  return sql.ref<string>(splitBy === 'action' ? 'action_key' : 'user_key');
}

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

/** What one statement answers for a timeline: each name's total, the cells, and the names as first spelled. */
export interface TimelineCells {
  /** Each name key's total over the range: what ranks the series. */
  totals: TimelineCount[];
  /**
   * Entries per bucket and name key; key null sums names that cannot be among the series (more than
   * TIMELINE_SERIES_MAX ranked above them). The caller folds the other names it does not show.
   */
  counts: TimelineCount[];
  /** The names as first spelled of the keys that may be shown (a key without one stands for itself). */
  names: Map<string, string>;
}

/**
 * A timeline's counts in one statement, so in one snapshot without a transaction, and on PostgreSQL one round trip
 * instead of a snapshot and three (each cost ~1 ms there, as much as the count tables' rows they read). The pieces'
 * cells are grouped once; the database sums them, so only a row per name, and per bucket of the names that may be
 * shown, comes back (24 hours by user are ~3,000 cells of hour and user over 1M entries, whose rows cost ~1 µs each
 * to hand over). Which names are shown is decided by the caller from the totals (`rankSeries`), ties included: a
 * name with fewer than TIMELINE_SERIES_MAX ranked above it keeps its own cells.
 *
 * When no name narrows the filter (nor anything the counts don't hold), only the candidate names' cells are grouped:
 * the rest of a bucket is its count of every name, from the counts without a split (`audit_day_counts`,
 * `audit_hour_counts`), less theirs; and per hour, the names' totals come from the per-day counts. 24 hours per hour
 * by user over 1M entries grouped ~3,100 cells of hour and user twice (by user for the totals, by hour and name for
 * the rest); now ~770 cells of day and hour for the totals, the candidates' ~200 and 24 hours'.
 */
export async function timelineCells(
  reader: Reader,
  filter: SqlAuditFilter,
  interval: AuditTimelineInterval,
  splitBy: AuditTimelineSplit,
): Promise<TimelineCells> {
  const plan = timelinePlan(filter, interval, splitBy);
  const result: TimelineCells = { totals: [], counts: [], names: new Map() };
  if (plan.cells.length === 0) return result;
  const statement = (slots: TimelinePlan, entries: EntriesOf) => {
    const query = timelineStatement(reader, slots, { interval, splitBy, entries });
    return { compile: () => query.compile(reader) };
  };
  // Without a search, built and compiled once per plan shape (`runTemplated`); a search's condition is built for it.
  const rows =
    filter.search === undefined
      ? await runTemplated(reader, `audit-timeline-${interval}-${splitBy}`, plan, (slots) =>
          statement(slots, (range) => entriesWhere(reader, { ...slots.conditions, ...range })),
        )
      : (
          await reader.executeQuery<CellRow>(
            statement(plan, (range) => filteredEntries(reader, { ...filter, ...range })).compile(),
          )
        ).rows;
  const everyName: CellRow[] = [];
  const shownPerBucket = new Map<number, number>();
  for (const row of rows) {
    if (row.part === 0) result.totals.push({ bucket: 0, key: row.key, n: row.n });
    else if (row.part === 1) {
      result.counts.push({ bucket: row.bucket, key: row.key, n: row.n });
      if (row.key !== null) shownPerBucket.set(row.bucket, (shownPerBucket.get(row.bucket) ?? 0) + row.n);
    } else if (row.part === 3) everyName.push(row);
    else if (row.name !== null) result.names.set(row.key!, row.name);
  }
  // The rest of a bucket: its count of every name less the candidates' (summed here: in the statement, a second
  // read of their cells cost 1.3 of 3.7 ms per 24 hours by user).
  for (const { bucket, n } of everyName)
    result.counts.push({ bucket, key: null, n: n - (shownPerBucket.get(bucket) ?? 0) });
  return result;
}

/**
 * part 0: a name's total; 1: a bucket's count of a candidate name, or of the rest (key null); 2: a name; 3: a
 * bucket's count of every name (when the counts without a split serve the filter).
 */
interface CellRow {
  part: number;
  bucket: number;
  key: string | null;
  n: number;
  name: string | null;
}

/** A time range of the rows (either bound may be open). */
interface Range {
  startMs?: number;
  endMs?: number;
}

/**
 * Where a piece of the range is counted: whole days or hours from the count tables, the rest from the rows
 * (`subtract`: negated, the rest of a bucket read whole), or the pieces of a bucket's rest, negated. Its numbers are
 * values of the statement; which pieces there are is its shape.
 */
type PiecePlan =
  | { wholeDays: WholeBuckets }
  | { wholeHours: WholeBuckets }
  | { rows: Range; subtract: boolean }
  | { negated: PiecePlan[] };

/**
 * What a timeline's statement reads, as plain data (a query template's plan): the filter's conditions but its range,
 * and the pieces of the range of the split's cells, of the counts without a split (`bucketTotals`: no name narrows
 * the filter, nor anything else the counts don't hold) and of the names' totals per day (`nameTotals`: per hour, of
 * one tenant). Bucketed per the timeline's interval but `nameTotals`, per day.
 */
interface TimelinePlan {
  conditions: EntryConditions;
  cells: PiecePlan[];
  bucketTotals?: PiecePlan[];
  nameTotals?: PiecePlan[];
}

function timelinePlan(
  filter: SqlAuditFilter,
  interval: AuditTimelineInterval,
  splitBy: AuditTimelineSplit,
): TimelinePlan {
  const conditions = { ...entryConditions(filter), startMs: undefined, endMs: undefined };
  const cells = cellPieces(filter, interval, splitBy);
  const bucketTotals = unsplit(filter) ? cellPieces(filter, interval, 'none') : undefined;
  // Per hour, the names' totals over the range from the per-day counts: a day's cells rather than 24 hours'. Of one
  // tenant: the count tables' indexes lead with it, and without it each piece read from the per-hour counts is a
  // scan of the whole table (every tenant's hours are counted from the hours' cells, once).
  const nameTotals =
    interval === 'hour' && bucketTotals && conditions.tenant !== undefined
      ? cellPieces(filter, 'day', splitBy)
      : undefined;
  return { conditions, cells, bucketTotals, nameTotals };
}

/** The rows of a time range of the filter: a template's (its conditions) or a search's (its filter). */
type EntriesOf = (range: Range) => ReturnType<typeof entriesWhere>;

/** The timeline's statement of a plan (see `timelineCells`). */
function timelineStatement(
  reader: Reader,
  plan: TimelinePlan,
  of: { interval: AuditTimelineInterval; splitBy: AuditTimelineSplit; entries: EntriesOf },
) {
  const { conditions } = plan;
  const { splitBy } = of;
  const cellsOf = (pieces: PiecePlan[], interval: AuditTimelineInterval, split: Split) =>
    unionOf(
      pieces.map((piece) => pieceQuery(reader, piece, { ...of, conditions, interval, splitBy: split })),
    )!;
  const cells = cellsOf(plan.cells, of.interval, splitBy);
  const bucketTotals = plan.bucketTotals && cellsOf(plan.bucketTotals, of.interval, 'none');
  const nameTotals = plan.nameTotals && cellsOf(plan.nameTotals, 'day', splitBy);
  const { tenant } = conditions;
  const [table, key, name] =
    splitBy === 'action'
      ? ['audit_action_day_counts', 'action_key', 'action_name']
      : ['audit_user_day_counts', 'user_key', 'user_name'];
  const spelled = sql<string>`(select min(${sql.ref(name)}) from ${sql.table(table)} as spelled
    where spelled.${sql.ref(key)} = candidates.key${tenant === undefined ? sql`` : sql` and spelled.tenant = ${tenant}`})`;
  const ranked = sql`totals as (select key, sum(n) as n from ${nameTotals ? sql`${nameTotals} as t` : sql`cells`} group by key),
    candidates as (
      select key from (select key, rank() over (order by n desc) as place from totals) as ranked
      where place <= ${sql.lit(TIMELINE_SERIES_MAX)}
    )`;
  // Read once (only the candidates' cells, when the totals come from the per-day counts): SQLite then filters the
  // cells as it reads them instead of storing every one first (24 hours by user: 2.0 → 1.6 ms).
  const cellsOnce = nameTotals ? sql`not materialized` : sql``;
  return bucketTotals
    ? // The rest of a bucket is its count of every name (the counts without a split) less the candidates'
      // (subtracted by `timelineCells`): only the candidates' cells are grouped, not every name's.
      sql<CellRow>`
    with cells as ${cellsOnce} ${cells}, ${ranked},
    shown as (
      select bucket, key, sum(n) as n from cells where key in (select key from candidates) group by bucket, key
    ),
    every as (select bucket, sum(n) as n from ${bucketTotals} as b group by bucket)
    select 0 as part, 0 as bucket, key, n, null as name from totals
    union all
    select 1, bucket, key, n, null from shown
    union all
    select 3, bucket, null, n, null from every
    union all
    select 2, 0, key, 0, ${spelled} from candidates`
    : sql<CellRow>`
    with cells as ${cells}, ${ranked}
    select 0 as part, 0 as bucket, key, n, null as name from totals
    union all
    select 1, bucket, case when key in (select key from candidates) then key end, sum(n), null from cells
      group by 2, 3
    union all
    select 2, 0, key, 0, ${spelled} from candidates`;
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
function cellPieces(filter: SqlAuditFilter, interval: AuditTimelineInterval, splitBy: Split): PiecePlan[] {
  const counted = countable(filter);
  const otherName =
    splitBy === 'action' ? filter.userName : splitBy === 'user' ? filter.actionName : undefined;
  const hourly = counted && otherName === undefined;
  const partly = (range: Range): PiecePlan[] =>
    hourly ? hourPieces(range) : [{ rows: range, subtract: false }];
  if (interval === 'hour' || !counted) return partly({ startMs: filter.startMs, endMs: filter.endMs });
  const { whole, added, subtracted } = coverRange(filter.startMs, filter.endMs, DAY_MS);
  const pieces: PiecePlan[] = whole ? [{ wholeDays: whole }] : [];
  for (const piece of added) pieces.push(...partly(piece));
  for (const piece of subtracted) pieces.push({ negated: partly(piece) });
  return pieces;
}

/** A range's whole hours from the per-hour counts, its partial hours from the rows. */
function hourPieces({ startMs, endMs }: Range): PiecePlan[] {
  const { whole, added, subtracted } = coverRange(startMs, endMs, HOUR_MS);
  const pieces: PiecePlan[] = whole ? [{ wholeHours: whole }] : [];
  for (const piece of added) pieces.push({ rows: piece, subtract: false });
  for (const piece of subtracted) pieces.push({ rows: piece, subtract: true });
  return pieces;
}

/** A piece's cells, bucketed per `interval`. */
function pieceQuery(
  reader: Reader,
  piece: PiecePlan,
  of: { conditions: EntryConditions; interval: AuditTimelineInterval; splitBy: Split; entries: EntriesOf },
): CellQuery {
  if ('wholeDays' in piece) return wholeDayCounts(reader, of.conditions, of.splitBy, piece.wholeDays);
  if ('wholeHours' in piece)
    return wholeHourCounts(reader, of.conditions, of.splitBy, piece.wholeHours, of.interval);
  if ('rows' in piece) return rowCounts(of.entries(piece.rows), of.interval, of.splitBy, piece.subtract);
  return negated(
    reader,
    piece.negated.map((part) => pieceQuery(reader, part, of)),
  );
}

interface Piece {
  startMs: number;
  endMs: number;
}

/**
 * [startMs, endMs) as whole buckets of `size`, the pieces at its ends counted apart (`added`), and pieces counted
 * apart to be subtracted: a piece at an end that is most of its bucket is read as the whole bucket less the rest
 * of it, so at most half a bucket is read from the finer counts or the rows at each end (bench:audit's ranges end
 * at 01:59:38: the 22 hours of the first day were ~2,900 per-hour cells of user, now a day's ~250 less two hours').
 */
function coverRange(
  startMs: number | undefined,
  endMs: number | undefined,
  size: number,
): { whole: WholeBuckets | undefined; added: Piece[]; subtracted: Piece[] } {
  const split = splitRange(startMs, endMs, size);
  let whole = split.whole;
  let partial = split.partial;
  // A range across one boundary and no whole bucket: a piece on each side of it, each maybe most of its bucket.
  const [only] = partial;
  const boundary = only ? Math.floor(only.startMs / size) + 1 : 0;
  if (!whole && only && boundary * size < only.endMs) {
    whole = { first: boundary, end: boundary };
    partial = [
      { startMs: only.startMs, endMs: boundary * size },
      { startMs: boundary * size, endMs: only.endMs },
    ];
  }
  const added: Piece[] = [];
  const subtracted: Piece[] = [];
  for (const piece of partial) {
    const bucket = Math.floor(piece.startMs / size);
    const withinOneBucket = bucket === Math.floor((piece.endMs - 1) / size);
    const rest = size - (piece.endMs - piece.startMs);
    // Only a bucket next to the whole ones (or the range's only bucket) joins them as one range.
    const adjacent = whole === undefined || whole.first === bucket + 1 || whole.end === bucket;
    if (!withinOneBucket || rest >= size / 2 || !adjacent) {
      added.push(piece);
      continue;
    }
    whole = {
      first: whole === undefined || whole.first === bucket + 1 ? bucket : whole.first,
      end: whole === undefined || whole.end === bucket ? bucket + 1 : whole.end,
    };
    if (piece.startMs > bucket * size) subtracted.push({ startMs: bucket * size, endMs: piece.startMs });
    if (piece.endMs < (bucket + 1) * size)
      subtracted.push({ startMs: piece.endMs, endMs: (bucket + 1) * size });
  }
  if (whole && whole.first !== undefined && whole.first === whole.end) whole = undefined;
  return { whole, added, subtracted };
}

/** The cells of the queries with their counts negated (the rest of a bucket counted whole). */
function negated(reader: Reader, queries: CellQuery[]): CellQuery {
  const negation = reader
    .selectFrom(unionOf(queries)!.as('rest'))
    .select(['bucket', 'key', sql<number>`-${sql.ref('n')}`.as('n')]);
  // Its FROM is the union, not one of the schema's tables; its columns are a cell's, which is all a union needs.
  return negation as unknown as CellQuery;
}

/** Whole hours of the split's names (of the filter's name of the split, if any) from the per-hour counts. */
function wholeHourCounts(
  reader: Reader,
  { tenant, actionKey, userKey }: EntryConditions,
  splitBy: Split,
  { first, end }: WholeBuckets,
  interval: AuditTimelineInterval,
): CellQuery {
  const table =
    splitBy === 'none'
      ? 'audit_hour_counts'
      : splitBy === 'action'
        ? 'audit_action_hour_counts'
        : 'audit_user_hour_counts';
  const key = splitBy === 'action' ? 'action_key' : 'user_key';
  const name = splitBy === 'none' ? undefined : splitBy === 'action' ? actionKey : userKey;
  // Integer division on both engines (hours are positive); a literal, so select and group by are one expression.
  const bucket = sql<number>`hour / ${sql.lit(intervalMs(interval) / HOUR_MS)}`;
  return reader
    .selectFrom(table)
    .select([bucket.as('bucket'), keyOf(splitBy).as('key'), 'n'])
    .$if(tenant !== undefined, (q) => q.where('tenant', '=', tenant!))
    .$if(first !== undefined, (q) => q.where('hour', '>=', first!))
    .$if(end !== undefined, (q) => q.where('hour', '<', end!))
    .$if(name !== undefined, (q) => q.where(sql.ref(key), '=', name!));
}

/** The rows' counts per bucket and name; negated with `subtract` (the rest of an hour counted whole). */
function rowCounts(
  entries: ReturnType<EntriesOf>,
  interval: AuditTimelineInterval,
  splitBy: Split,
  subtract: boolean,
): CellQuery {
  // Integer division on both engines (times are positive); a literal, so select and group by are one expression.
  const bucket = sql<number>`time_ms / ${sql.lit(intervalMs(interval))}`;
  const n = subtract ? sql<number>`-count(*)` : sql<number>`count(*)`;
  const query = entries.select([bucket.as('bucket'), keyOf(splitBy).as('key'), n.as('n')]);
  if (splitBy === 'none') return query.groupBy(bucket);
  return query.groupBy([bucket, splitBy === 'action' ? 'action_key' : 'user_key']);
}

/** Whole days [first, end) from the count table that holds the split and the filter's names. */
function wholeDayCounts(
  reader: Reader,
  { tenant, actionKey: action, userKey: user }: EntryConditions,
  splitBy: Split,
  { first, end }: WholeBuckets,
): CellQuery {
  if (splitBy === 'none' && (action !== undefined || user !== undefined))
    throw new Error('wholeDayCounts: the counts without a split hold no name.');
  // Split by action with a user named (or by user with an action named) needs the pairs' table.
  const paired = splitBy === 'action' ? user !== undefined : action !== undefined;
  const table =
    splitBy === 'none'
      ? 'audit_day_counts'
      : paired
        ? 'audit_action_user_day_counts'
        : splitBy === 'action'
          ? 'audit_action_day_counts'
          : 'audit_user_day_counts';
  return reader
    .selectFrom(table)
    .select(['day as bucket', keyOf(splitBy).as('key'), 'n'])
    .$if(tenant !== undefined, (q) => q.where('tenant', '=', tenant!))
    .$if(action !== undefined, (q) => q.where(sql.ref('action_key'), '=', action!))
    .$if(user !== undefined, (q) => q.where(sql.ref('user_key'), '=', user!))
    .$if(first !== undefined, (q) => q.where('day', '>=', first!))
    .$if(end !== undefined, (q) => q.where('day', '<', end!));
}
