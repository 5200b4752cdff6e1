import type { Database } from '../../storage/database.js';
import type { AuditCursor, AuditFilter, AuditJsonSeekPage, AuditSeekPage } from '../audit-entry.js';
import { countBuckets } from './audit-counts.js';
import { tenantOf } from './audit-filter-sql.js';
import { entryJsonOfRow, entryOfRow } from './audit-rows.js';
import { withSearchMatches } from './audit-search.js';
import { listRows, type ListRow } from './audit-list-rows.js';
import { countsWithRowsAtOnce } from './audit-page-at-once.js';
import { searchPageAtOnce } from './audit-search-at-once.js';
import type { CountedBucket } from '../../storage/time-buckets.js';
import { withPairIndexChoice } from './audit-pair-index.js';

/**
 * A page by position rather than by number: the entries after `after` in list order. Reads one row more than the
 * page to know whether another follows; counts and rows come from one snapshot, as for a numbered page.
 */
export async function seekPage(
  database: Database,
  filter: AuditFilter,
  pageSize: number,
  after: AuditCursor | undefined,
): Promise<AuditSeekPage> {
  const { rows, ...page } = await seekRows(database, filter, pageSize, after, false);
  return { ...page, items: rows.map((row) => entryOfRow(row.id, row.entry, row.tenant)) };
}

/** `seekPage` with each entry as its JSON text (`entryJsonOfRow`). */
export async function seekJsonPage(
  database: Database,
  filter: AuditFilter,
  pageSize: number,
  after: AuditCursor | undefined,
): Promise<AuditJsonSeekPage> {
  const { rows, ...page } = await seekRows(database, filter, pageSize, after, true);
  const items = rows.map((row) => entryJsonOfRow(row.id, row.entry, row.tenant, row.valid));
  const last = rows.at(-1);
  return { ...page, items, ...(last && { last: { timeMs: last.time_ms, id: last.id } }) };
}

async function seekRows(
  database: Database,
  asked: AuditFilter,
  pageSize: number,
  after: AuditCursor | undefined,
  checkJson: boolean,
) {
  if (!Number.isInteger(pageSize) || pageSize < 1) throw new RangeError('pageSize must be >= 1');
  const atOnce = await countsWithRowsAtOnce(
    database.db,
    { ...asked, engine: database.kind },
    { limit: pageSize + 1, after },
  );
  if (atOnce) return pageOf(atOnce.rows, totalOf(atOnce.buckets), pageSize);
  const searched = await searchPageAtOnce(
    database.db,
    { ...asked, engine: database.kind },
    { limit: pageSize + 1, after },
  );
  if (searched) return pageOf(searched.rows, searched.totalCount, pageSize);

  return database.db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const searched = await withSearchMatches(trx, { ...asked, engine: database.kind }, tenantOf(asked));
      const filter = await withPairIndexChoice(trx, searched);
      const buckets = await countBuckets(trx, filter);
      const read = await listRows(trx, filter, { limit: pageSize + 1, after }, { checkJson });
      return pageOf(read, totalOf(buckets), pageSize);
    });
}

function totalOf(buckets: readonly CountedBucket[]): number {
  return buckets.reduce((sum, bucket) => sum + bucket.count, 0);
}

/** A page of the rows read (one more than the page, to know whether another follows) and its count. */
function pageOf(read: ListRow[], totalCount: number, pageSize: number) {
  const rows = read.slice(0, pageSize);
  const last = rows.at(-1);
  const next = read.length > pageSize && last ? { timeMs: last.time_ms, id: last.id } : undefined;
  return { rows, totalCount, ...(next && { next }) };
}
