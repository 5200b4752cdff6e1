import type { Database } from '../../storage/database.js';
import type { AuditCursor, AuditFilter, AuditSeekPage } from '../audit-entry.js';
import { countBuckets, tenantOf } from './audit-counts.js';
import { entryOfRow } from './audit-rows.js';
import { withSearchMatches } from './audit-search.js';
import { listRows } from './audit-list-rows.js';
import { withPairIndexChoice } from './audit-pair-index.js';

/**
 * A page by position rather than by number: the entries after `after` in list order. Reads one row more than the
 * page to know whether another follows; counts and rows come from one snapshot, as for a numbered page.
 */
export async function seekPage(
  database: Database,
  asked: AuditFilter,
  pageSize: number,
  after: AuditCursor | undefined,
): Promise<AuditSeekPage> {
  if (!Number.isInteger(pageSize) || pageSize < 1) throw new RangeError('pageSize must be >= 1');

  return database.db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const searched = await withSearchMatches(trx, { ...asked, engine: database.kind }, tenantOf(asked));
      const filter = await withPairIndexChoice(trx, searched);
      const buckets = await countBuckets(trx, filter);
      const totalCount = buckets.reduce((sum, bucket) => sum + bucket.count, 0);
      const rows = await listRows(trx, filter, { limit: pageSize + 1, after });
      const shown = rows.slice(0, pageSize);
      const page: AuditSeekPage = {
        items: shown.map((row) => entryOfRow(row.id, row.entry, row.tenant)),
        totalCount,
      };
      const last = shown.at(-1);
      if (rows.length > pageSize && last) page.next = { timeMs: last.time_ms, id: last.id };
      return page;
    });
}
