import { sql } from 'kysely';
import type { Tx } from '../../storage/database.js';
import { runTemplated } from '../../storage/query-templates.js';
import { DAY_MS, HOUR_MS, type CountedBucket } from '../../storage/time-buckets.js';
import { bucketsOf, countBucketsTemplate, countedPerDayInTables, type CountPlan } from './audit-counts.js';
import {
  entriesWhere,
  entryConditions,
  type EntryConditions,
  type SqlAuditFilter,
} from './audit-filter-sql.js';
import { listRowsTemplate, type ListRow, type ListWindow } from './audit-list-rows.js';

type Reader = Pick<Tx, 'selectFrom' | 'executeQuery' | 'getExecutor'>;

/** A row of the statement: a count (`piece`, `day`, `n`) or an entry (the rest). */
interface CountOrEntry {
  piece: number | null;
  day: number | null;
  n: number | null;
  id: number | null;
  time_ms: number | null;
  entry: string | null;
  tenant: string | null;
}

/**
 * PostgreSQL, a page whose rows do not depend on the counts (the first page, or the page after a cursor): its
 * per-day counts and its rows read by one statement. One statement sees one snapshot, so the page and its count
 * agree without a transaction, and the list costs one round trip where begin, counts, rows and commit took four
 * (each a wake-up of the server process and of Gatehouse's, which on a busy host is where a request waits).
 *
 * Undefined when the page can't be read so: another engine, an OFFSET (the counts say where the page starts), or a
 * filter the count tables don't serve (a search, an instance, a resource).
 */
export async function countsWithRowsAtOnce(
  reader: Reader,
  filter: SqlAuditFilter,
  window: ListWindow,
): Promise<{ buckets: CountedBucket[]; rows: ListRow[] } | undefined> {
  if (filter.engine !== 'postgres' || (window.offset ?? 0) > 0 || !countedPerDayInTables(filter))
    return undefined;
  const counting = countBucketsTemplate(reader, filter);
  // Nothing to count (an empty range): no entry either.
  if (!counting) return { buckets: [], rows: [] };
  const [countName, countPlan, countBuild] = counting.template;
  const [rowsName, rowsPlan, rowsBuild] = listRowsTemplate(reader, filter, window);
  const plan = { counts: countPlan, rows: rowsPlan };
  const read = await runTemplated(reader, `${countName}+${rowsName}`, plan, (slots) => {
    // The counts' rows carry no entry, the entries' no count; PostgreSQL types each NULL from the other arm.
    const counts = reader
      .selectFrom(countBuild(slots.counts).as('c'))
      .select([
        'c.piece',
        'c.day',
        'c.n',
        sql<number | null>`null`.as('id'),
        sql<number | null>`null`.as('time_ms'),
        sql<string | null>`null`.as('entry'),
        sql<string | null>`null`.as('tenant'),
      ])
      .$castTo<CountOrEntry>();
    const entries = reader
      .selectFrom(rowsBuild(slots.rows).as('r'))
      .select([
        sql<number | null>`null`.as('piece'),
        sql<number | null>`null`.as('day'),
        sql<number | null>`null`.as('n'),
        'r.id',
        'r.time_ms',
        'r.entry',
        'r.tenant',
      ])
      .$castTo<CountOrEntry>();
    return counts.unionAll(entries);
  });
  return splitCountsAndRows(counting.plan, read);
}

/** A statement's counts and rows apart: the buckets, newest first, and the page's rows in list order. */
function splitCountsAndRows(
  plan: CountPlan,
  read: readonly CountOrEntry[],
): { buckets: CountedBucket[]; rows: ListRow[] } {
  const countRows: { piece: number; day: number; n: number }[] = [];
  const rows: ListRow[] = [];
  for (const row of read) {
    if (row.id === null) countRows.push({ piece: row.piece!, day: row.day!, n: row.n! });
    else rows.push({ id: row.id, time_ms: row.time_ms!, entry: row.entry!, tenant: row.tenant! });
  }
  // A union keeps no order: the page's, newest first, again.
  rows.sort((a, b) => b.time_ms - a.time_ms || b.id - a.id);
  return { buckets: bucketsOf(plan, countRows), rows };
}

/**
 * PostgreSQL, a numbered page after the first (`skip` entries before it): its per-day counts and its rows by one
 * statement, where a transaction's begin, counts, rows and commit took four round trips. The statement finds the
 * bucket the page starts in from the counts itself (as `locatePage` does: the newest buckets' counts summed until
 * they pass `skip`), and reads the rows before that bucket's end, skipping the rest of `skip` in the index alone.
 *
 * Undefined when the page can't be read so: another engine, or a filter the count tables don't serve.
 */
export async function numberedPageAtOnce(
  reader: Reader,
  filter: SqlAuditFilter,
  { skip, limit }: { skip: number; limit: number },
): Promise<{ buckets: CountedBucket[]; rows: ListRow[] } | undefined> {
  if (filter.engine !== 'postgres' || !countedPerDayInTables(filter)) return undefined;
  const counting = countBucketsTemplate(reader, filter);
  if (!counting) return { buckets: [], rows: [] };
  const [countName, countPlan, countBuild] = counting.template;
  const plan = {
    counts: countPlan,
    // Where each piece counted from the rows ends (whole days and hours end where their number says).
    pieceEnds: counting.plan.fromRows.map((piece) => piece.endMs),
    conditions: entryConditions(filter),
    skip,
    limit,
  };
  const read = await runTemplated(reader, `${countName}+numbered-page`, plan, (slots) => {
    const bucketEnd = sql`case c.piece
      when -1 then (c.day::bigint + 1) * ${sql.lit(DAY_MS)}
      when -2 then (c.day::bigint + 1) * ${sql.lit(HOUR_MS)}
      ${sql.join(
        slots.pieceEnds.map((end, k) => sql`when ${sql.lit(k)} then ${end}::bigint`),
        sql` `,
      )} end`;
    // The page's ids from the index alone (skipping there, not in the rows), then their rows.
    const ids = entriesWhere(reader, slots.conditions)
      .where(sql<boolean>`time_ms < (select end_ms from located)`)
      .orderBy('time_ms', 'desc')
      .orderBy('id', 'desc')
      .limit(slots.limit)
      .offset(sql<number>`(select skip_in from located)`)
      .select('id');
    const rows = reader
      .selectFrom('audit_entries')
      .select(['id', 'time_ms', 'entry', 'tenant'])
      .where('id', 'in', ids);
    const hours = hourCountsOf(slots.conditions);
    // A page that starts in a whole day starts in one of its hours: the day's hours from the per-hour counts,
    // summed the same way, so OFFSET skips at most an hour of the index (over 1M entries, page 5000 skipped
    // ~8,000 index entries of its day on average; within its hour, ~350).
    const withinHour = hours
      ? sql`hours as (select hour, sum(n) as n from ${hours} as h
          where h.hour >= (select end_ms / ${sql.lit(HOUR_MS)} - 24 from day_located where piece = -1)
            and h.hour < (select end_ms / ${sql.lit(HOUR_MS)} from day_located where piece = -1)
          group by hour),
        hours_through as (select hour, n, sum(n) over (order by hour desc rows unbounded preceding) as upto
          from hours where n > 0),
        hour_located as (select (hour::bigint + 1) * ${sql.lit(HOUR_MS)} as end_ms,
            (select skip_in from day_located) - (upto - n) as skip_in
          from hours_through where upto > (select skip_in from day_located) order by hour desc limit 1),
        located as (select end_ms, skip_in from hour_located
          union all select end_ms, skip_in from day_located where not exists (select 1 from hour_located))`
      : sql`located as (select end_ms, skip_in from day_located)`;
    const statement = sql<CountOrEntry>`(with c as (${countBuild(slots.counts)}),
      ends as (select c.piece, ${bucketEnd} as end_ms, c.n from c where c.n > 0),
      through as (select piece, end_ms, n, sum(n) over (order by end_ms desc rows unbounded preceding) as upto
        from ends),
      day_located as (select piece, end_ms, ${slots.skip}::bigint - (upto - n) as skip_in from through
        where upto > ${slots.skip}::bigint order by end_ms desc limit 1),
      ${withinHour}
      select c.piece, c.day, c.n, null as id, null as time_ms, null as entry, null as tenant from c
      union all
      select null, null, null, r.id, r.time_ms, r.entry, r.tenant from (${rows}) as r)`;
    return reader.selectFrom(statement.as('page')).selectAll().$castTo<CountOrEntry>();
  });
  return splitCountsAndRows(counting.plan, read);
}

/**
 * The per-hour counts of the conditions' entries, each hour's tenants' rows apart (the statement sums them): of
 * every entry, of one action or of one user. None for an action and a user together (counted per day only).
 */
function hourCountsOf(conditions: EntryConditions) {
  const { tenant, actionKey, userKey } = conditions;
  if (actionKey !== undefined && userKey !== undefined) return undefined;
  const [table, key, value] =
    actionKey !== undefined
      ? (['audit_action_hour_counts', 'action_key', actionKey] as const)
      : userKey !== undefined
        ? (['audit_user_hour_counts', 'user_key', userKey] as const)
        : (['audit_hour_counts', undefined, undefined] as const);
  const where = [
    ...(tenant === undefined ? [] : [sql`tenant = ${tenant}`]),
    ...(key === undefined ? [] : [sql`${sql.ref(key)} = ${value}`]),
  ];
  return sql`(select hour, n from ${sql.table(table)}${where.length > 0 ? sql` where ${sql.join(where, sql` and `)}` : sql``})`;
}
