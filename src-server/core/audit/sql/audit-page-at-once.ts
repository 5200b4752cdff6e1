import { sql } from 'kysely';
import type { Tx } from '../../storage/database.js';
import { runTemplated } from '../../storage/query-templates.js';
import type { CountedBucket } from '../../storage/time-buckets.js';
import { bucketsOf, countBucketsTemplate, countedPerDayInTables } from './audit-counts.js';
import type { SqlAuditFilter } from './audit-filter-sql.js';
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
  const countRows: { piece: number; day: number; n: number }[] = [];
  const rows: ListRow[] = [];
  for (const row of read) {
    if (row.id === null) countRows.push({ piece: row.piece!, day: row.day!, n: row.n! });
    else rows.push({ id: row.id, time_ms: row.time_ms!, entry: row.entry!, tenant: row.tenant! });
  }
  // A union keeps no order: the page's, newest first, again.
  rows.sort((a, b) => b.time_ms - a.time_ms || b.id - a.id);
  return { buckets: bucketsOf(counting.plan, countRows), rows };
}
