import { sql, type SelectQueryBuilder } from 'kysely';
import type { Tx } from '../../storage/database.js';
import type { GatehouseSchema } from '../../storage/schema.js';
import { DAY_MS, HOUR_MS, splitRange, type CountedBucket } from '../../storage/time-buckets.js';
import { runTemplated } from '../../storage/query-templates.js';
import {
  entriesWhere,
  entryConditions,
  filteredEntries,
  tenantOf,
  type EntryConditions,
  type SqlAuditFilter,
} from './audit-filter-sql.js';

type Reader = Pick<Tx, 'selectFrom'>;
/** A reader that runs statements it was handed compiled (`runTemplated`). */
type Runner = Pick<Tx, 'selectFrom' | 'executeQuery' | 'getExecutor'>;

/**
 * The matching entries per day, newest first, exact: whole days from the counts, the partial days at the ends
 * of the time range counted from the rows (at most a day's worth of index each) — or, when the filter is only a
 * tenant and a time range, their whole hours from the per-hour counts and only the partial hours from the rows
 * (at most an hour's worth each). One statement (the pieces joined by UNION ALL): on PostgreSQL each statement is
 * a round trip, and a list already needs four (begin, counts, rows, commit).
 */
export async function countBuckets(reader: Runner, filter: SqlAuditFilter): Promise<CountedBucket[]> {
  if (filter.searchIsWholeFilter && filter.searchMatches !== undefined) {
    // Counted from the full-text index (`withSearchMatches`); one bucket of all time: a page is found by OFFSET.
    const count = filter.searchMatches;
    return count > 0 ? [{ startMs: 0, endMs: Number.MAX_SAFE_INTEGER, count }] : [];
  }
  const plan = countPlan(filter);
  if (!plan) return [];
  const rows = countedPerDayInTables(filter)
    ? await runTemplated(reader, ...countTemplate(reader, filter, plan))
    : await countQuery(plan, {
        tenant: tenantOf(filter),
        wholeDays: (first, end) => countRowsPerDay(reader, filter, first, end),
        piece: ({ startMs, endMs }) => filteredEntries(reader, { ...filter, startMs, endMs }),
        reader,
      }).execute();
  return bucketsOf(plan, rows);
}

/**
 * `countBuckets`' statement as a query template (`runTemplated`'s name, plan and builder), for a filter whose whole
 * days the count tables hold (no instance, resource or search); undefined when the range holds nothing to count.
 * `bucketsOf` turns its rows into the buckets.
 */
export function countBucketsTemplate(
  reader: Reader,
  filter: SqlAuditFilter,
): { template: CountTemplate; plan: CountPlan } | undefined {
  if (!countedPerDayInTables(filter))
    throw new Error('countBucketsTemplate: the count tables do not serve it.');
  const plan = countPlan(filter);
  return plan && { template: countTemplate(reader, filter, plan), plan };
}

type CountTemplate = [
  name: string,
  plan: { plan: CountPlan; conditions: EntryConditions },
  build: (slots: { plan: CountPlan; conditions: EntryConditions }) => CountQuery,
];

function countTemplate(reader: Reader, filter: SqlAuditFilter, plan: CountPlan): CountTemplate {
  return [
    'audit-count-buckets',
    { plan, conditions: namesOf(filter) },
    (slots) =>
      countQuery(slots.plan, {
        tenant: slots.conditions.tenant,
        wholeDays: (first, end) => dayCounts(reader, slots.conditions, first, end),
        piece: ({ startMs, endMs }) => entriesWhere(reader, { ...slots.conditions, startMs, endMs }),
        reader,
      }),
  ];
}

/** What a filter's range needs counted: whole days, whole hours, pieces from the rows; undefined if nothing. */
function countPlan(filter: SqlAuditFilter): CountPlan | undefined {
  const { whole, partial } = splitRange(filter.startMs, filter.endMs, DAY_MS);
  const hourly = countedPerHour(filter);
  const wholeHours: { first: number; end: number }[] = [];
  const fromRows: { startMs: number; endMs: number }[] = [];
  for (const piece of partial) {
    if (!hourly) {
      fromRows.push(piece);
      continue;
    }
    const hours = splitRange(piece.startMs, piece.endMs, HOUR_MS);
    // Both ends of a piece are set, so are those of its whole hours.
    if (hours.whole) wholeHours.push({ first: hours.whole.first!, end: hours.whole.end! });
    fromRows.push(...hours.partial);
  }
  if (!whole && wholeHours.length === 0 && fromRows.length === 0) return undefined;
  return { wholeDays: whole && { first: whole.first, end: whole.end }, wholeHours, fromRows };
}

/** The buckets of a count statement's rows, newest first. */
export function bucketsOf(
  plan: CountPlan,
  rows: readonly { piece: number; day: number; n: number }[],
): CountedBucket[] {
  const buckets: CountedBucket[] = [];
  for (const { piece, day, n } of rows) {
    if (piece === -1) buckets.push({ startMs: day * DAY_MS, endMs: (day + 1) * DAY_MS, count: n });
    else if (piece === -2) buckets.push({ startMs: day * HOUR_MS, endMs: (day + 1) * HOUR_MS, count: n });
    else buckets.push({ ...plan.fromRows[piece]!, count: n });
  }
  return buckets.sort((a, b) => b.startMs - a.startMs);
}

/** The conditions but the range: a count's pieces and days have ranges of their own. */
function namesOf(filter: SqlAuditFilter): EntryConditions {
  return { ...entryConditions(filter), startMs: undefined, endMs: undefined };
}

/** Which counts `countBuckets` reads: the whole days, the whole hours, and the pieces counted from the rows. */
export interface CountPlan {
  wholeDays: { first: number | undefined; end: number | undefined } | undefined;
  wholeHours: { first: number; end: number }[];
  fromRows: { startMs: number; endMs: number }[];
}

/**
 * The count statement of a plan: one row per whole day and whole hour, and one per piece. `piece` says which part
 * a row counts: -1 a whole day, -2 a whole hour (`day` says which), k the k-th piece counted from the rows.
 */
function countQuery(
  plan: CountPlan,
  of: {
    reader: Reader;
    tenant: string | undefined;
    wholeDays: (first: number | undefined, end: number | undefined) => CountQuery;
    piece: (piece: { startMs: number; endMs: number }) => ReturnType<typeof entriesWhere>;
  },
): CountQuery {
  const pieces = plan.fromRows.map((piece, k): CountQuery =>
    of
      .piece(piece)
      .select((eb) => [sql.lit(k).as('piece'), sql.lit(0).as('day'), eb.fn.countAll<number>().as('n')]),
  );
  const hourCounts = plan.wholeHours.map(({ first, end }) =>
    wholeHourCounts(of.reader, of.tenant, first, end),
  );
  const wholeDays = plan.wholeDays && of.wholeDays(plan.wholeDays.first, plan.wholeDays.end);
  // `countBuckets` makes no plan without a count in it.
  const [head, ...rest]: CountQuery[] = [...(wholeDays ? [wholeDays] : []), ...hourCounts, ...pieces];
  let query = head!;
  for (const next of rest) query = query.unionAll(next);
  return query;
}

/** Whether the count tables hold the filter's whole days (no instance, resource or search: those count rows). */
export function countedPerDayInTables(filter: SqlAuditFilter): boolean {
  return filter.instance === undefined && filter.resource === undefined && filter.search === undefined;
}

/** Whether the per-hour counts (all entries of a tenant, or of every tenant) serve the filter. */
function countedPerHour(filter: SqlAuditFilter): boolean {
  return (
    filter.actionName === undefined &&
    filter.userName === undefined &&
    filter.instance === undefined &&
    filter.resource === undefined &&
    filter.search === undefined
  );
}

/** The per-hour counts of whole hours [first, end) (hours since the epoch). */
function wholeHourCounts(reader: Reader, tenant: string | undefined, first: number, end: number): CountQuery {
  return reader
    .selectFrom('audit_hour_counts')
    .select((eb) => [sql.lit(-2).as('piece'), eb.ref('hour').as('day'), eb.fn.sum<number>('n').as('n')])
    .$if(tenant !== undefined, (q) => q.where('tenant', '=', tenant!))
    .where('hour', '>=', first)
    .where('hour', '<', end)
    .groupBy('hour');
}

/** A count query of any of the tables: the union's arms differ only in their FROM. */
export type CountQuery = SelectQueryBuilder<
  GatehouseSchema,
  keyof GatehouseSchema,
  { piece: number; day: number; n: number }
>;

/** The per-day counts of whole days [first, end), from the count table that serves the conditions. */
function dayCounts(
  reader: Reader,
  { tenant, actionKey: action, userKey: user }: EntryConditions,
  first: number | undefined,
  end: number | undefined,
): CountQuery {
  const table =
    action !== undefined && user !== undefined
      ? 'audit_action_user_day_counts'
      : action !== undefined
        ? 'audit_action_day_counts'
        : user !== undefined
          ? 'audit_user_day_counts'
          : 'audit_day_counts';
  // Every tenant at once sums the tenants' counts of a day.
  return reader
    .selectFrom(table)
    .select((eb) => [sql.lit(-1).as('piece'), 'day', eb.fn.sum<number>('n').as('n')])
    .$if(tenant !== undefined, (q) => q.where('tenant', '=', tenant!))
    .$if(action !== undefined, (q) => q.where(sql.ref('action_key'), '=', action!))
    .$if(user !== undefined, (q) => q.where(sql.ref('user_key'), '=', user!))
    .$if(first !== undefined, (q) => q.where('day', '>=', first!))
    .$if(end !== undefined, (q) => q.where('day', '<', end!))
    .groupBy('day');
}

/**
 * No counts per instance: its entries of the range are counted per day from the rows (an index on instance and
 * time keeps that to the instance's own entries). Nor per resource: a resource's entries are few, counted through
 * the index of `audit_resources`. Nor per search.
 */
function countRowsPerDay(
  reader: Reader,
  filter: SqlAuditFilter,
  first: number | undefined,
  end: number | undefined,
): CountQuery {
  // Integer division on both engines (times are positive); a literal, so select and group by are one expression.
  const day = sql<number>`time_ms / ${sql.lit(DAY_MS)}`;
  return filteredEntries(reader, {
    ...filter,
    startMs: first === undefined ? undefined : first * DAY_MS,
    endMs: end === undefined ? undefined : end * DAY_MS,
  })
    .select([sql.lit(-1).as('piece'), day.as('day'), (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy(day);
}
