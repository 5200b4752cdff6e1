import { sql } from 'kysely';
import type { Database, Db, Tx } from '../../storage/database.js';
import { GroupCommit } from '../../storage/group-commit.js';
import { RESTORE_WINDOW_MS } from '../../storage/restore-window.js';
import { DAY_MS, locatePage } from '../../storage/time-buckets.js';
import type {
  AuditEntry,
  AuditFilter,
  AuditPage,
  AuditJsonPage,
  AuditJsonSeekPage,
  AuditQuery,
  AuditResource,
  AuditCursor,
  AuditSeekPage,
  AuditStore,
  AuditTenantSummary,
  AuditTimelineOptions,
  ImportOptions,
  ImportProgress,
  ImportResult,
  NewAuditEntry,
  RetentionPolicy,
} from '../audit-entry.js';
import { normalizeEntry } from '../normalize-entry.js';
import { chooseInterval, rankSeries, shapeTimeline, type AuditTimeline } from '../audit-timeline.js';
import { timelineCells } from './audit-timeline-counts.js';
import { countBuckets } from './audit-counts.js';
import { tenantOf } from './audit-filter-sql.js';
import { OWN_TENANT } from '../audit-tenant.js';
import { importAuditEntries, importPreparedEntries } from './audit-import.js';
import type { ImportBatch } from '../import-batch.js';
import { moveToRemoved, planHistoryRemoval, planRetention, purgeRemoved } from './audit-removal.js';
import { contentKey, entryJsonOfRow, entryOfRow } from './audit-rows.js';
import { insertEntries, type PreparedEntry } from './audit-writes.js';
import type { ChainSigner } from '../chain/chain-signer.js';
import { seekJsonPage, seekPage } from './audit-seek.js';
import { withSearchMatches, withSearchTerms } from './audit-search.js';
import { listRows, type ListRow } from './audit-list-rows.js';
import { countsWithRowsAtOnce, numberedPageAtOnce } from './audit-page-at-once.js';
import { searchPageAtOnce } from './audit-search-at-once.js';
import { withPairIndexChoice } from './audit-pair-index.js';
import { startWithinHour } from './audit-page-hour.js';
import { entryById, previousOfResource } from './audit-changes.js';
import { ErrorCode } from '../../contracts/error-codes.js';
import { GatehouseError } from '../../errors/gatehouse-error.js';

const ITERATE_BATCH = 512;

export class AuditStoreClosedError extends GatehouseError {
  override name = 'AuditStoreClosedError';
  constructor() {
    super(ErrorCode.GH_ERR_STORE_CLOSED, 'The audit store is closed');
  }
}

/**
 * The audit trail in the Gatehouse database (SQLite or PostgreSQL). Appends that arrive together are committed
 * together (one transaction, one fsync) and resolve once committed. Lists read exact counts per day and seek to
 * the day a page starts in, so neither `totalCount` nor a deep `PageNumber` scans the trail. Removals move rows to
 * `audit_entries_removed`, kept for the restore window.
 */
export class SqlAuditStore implements AuditStore {
  private readonly appends: GroupCommit<PreparedEntry, AuditEntry>;
  private readonly pending = new Set<Promise<unknown>>();
  private maintenance: Promise<unknown> = Promise.resolve();
  private closing: Promise<void> | undefined;

  /** Signs the chain's removal records (the data dir's key); set by whoever opened the keys. */
  chainSigner: ChainSigner | undefined;

  constructor(
    private readonly database: Database,
    private readonly now: () => number = Date.now,
  ) {
    this.appends = new GroupCommit((entries) =>
      database.transaction((trx) => insertEntries(database, trx, entries, this.now())),
    );
  }

  async append(input: NewAuditEntry): Promise<AuditEntry> {
    this.assertOpen();
    const normalized = normalizeEntry(input);
    return await this.track(
      this.appends.submit({ ...normalized, hash: contentKey(normalized.entry, normalized.timeMs) }),
    );
  }

  async importEntries(
    entries: AsyncIterable<NewAuditEntry | readonly NewAuditEntry[]> | Iterable<NewAuditEntry>,
    onProgress?: (progress: ImportProgress) => void,
    options: ImportOptions = {},
  ): Promise<ImportResult> {
    this.assertOpen();
    return await this.track(
      importAuditEntries(this.database, entries, onProgress, this.now, options.tenant ?? OWN_TENANT),
    );
  }

  async importPrepared(
    batches: AsyncIterable<ImportBatch>,
    onProgress?: (progress: ImportProgress) => void,
    options: ImportOptions = {},
  ): Promise<ImportResult> {
    this.assertOpen();
    return await this.track(
      importPreparedEntries(this.database, batches, onProgress, this.now, options.tenant ?? OWN_TENANT, {
        offline: options.offline === true,
      }),
    );
  }

  async query(asked: AuditQuery): Promise<AuditPage> {
    const { rows, totalCount } = await this.numberedPage(asked, false);
    return { items: rows.map((row) => entryOfRow(row.id, row.entry, row.tenant)), totalCount };
  }

  async queryJson(asked: AuditQuery): Promise<AuditJsonPage> {
    const { rows, totalCount } = await this.numberedPage(asked, true);
    const items = rows.map((row) => entryJsonOfRow(row.id, row.entry, row.tenant, row.valid));
    const last = rows.at(-1);
    return { items, totalCount, ...(last && { last: { timeMs: last.time_ms, id: last.id } }) };
  }

  async seek(filter: AuditFilter, pageSize: number, after?: AuditCursor): Promise<AuditSeekPage> {
    this.assertOpen();
    return await seekPage(this.database, filter, pageSize, after);
  }

  async seekJson(filter: AuditFilter, pageSize: number, after?: AuditCursor): Promise<AuditJsonSeekPage> {
    this.assertOpen();
    return await seekJsonPage(this.database, filter, pageSize, after);
  }

  /** A page's rows by number, and the filter's count; `checkJson` as `listRows` takes it. */
  private async numberedPage(
    asked: AuditQuery,
    checkJson: boolean,
  ): Promise<{ rows: ListRow[]; totalCount: number }> {
    this.assertOpen();
    const engine = this.database.kind;
    if (!Number.isInteger(asked.pageNumber) || asked.pageNumber < 1)
      throw new RangeError('pageNumber must be >= 1');
    if (!Number.isInteger(asked.pageSize) || asked.pageSize < 1)
      throw new RangeError('pageSize must be >= 1');
    const read =
      asked.pageNumber === 1
        ? await countsWithRowsAtOnce(this.database.db, { ...asked, engine }, { limit: asked.pageSize })
        : await numberedPageAtOnce(
            this.database.db,
            { ...asked, engine },
            { skip: (asked.pageNumber - 1) * asked.pageSize, limit: asked.pageSize },
          );
    if (read)
      return { rows: read.rows, totalCount: read.buckets.reduce((sum, bucket) => sum + bucket.count, 0) };
    const skip = (asked.pageNumber - 1) * asked.pageSize;
    const searched = await searchPageAtOnce(
      this.database.db,
      { ...asked, engine },
      { limit: asked.pageSize, offset: skip },
    );
    if (searched) return searched;
    // One snapshot for the counts and the rows, so the page and totalCount agree.
    return this.database.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        const searched = await withSearchMatches(trx, { ...asked, engine }, tenantOf(asked));
        const query = await withPairIndexChoice(trx, searched);
        const buckets = await countBuckets(trx, query);
        const totalCount = buckets.reduce((sum, bucket) => sum + bucket.count, 0);
        const located = locatePage(buckets, (query.pageNumber - 1) * query.pageSize);
        if (!located) return { rows: [], totalCount };
        const start = await startWithinHour(trx, query, buckets, located);
        const endMs = query.endMs === undefined ? start.endMs : Math.min(query.endMs, start.endMs);
        const rows = await listRows(
          trx,
          { ...query, endMs },
          { limit: query.pageSize, offset: start.offset },
          { checkJson },
        );
        return { rows, totalCount };
      });
  }

  async entry(id: number, tenant?: string): Promise<AuditEntry | undefined> {
    this.assertOpen();
    return await entryById(this.database, id, tenant);
  }

  async previousOfResource(
    entry: AuditEntry,
    resource: Pick<AuditResource, 'type' | 'id'>,
  ): Promise<AuditEntry | undefined> {
    this.assertOpen();
    return await previousOfResource(this.database, entry, resource);
  }

  async *iterate(asked: AuditFilter): AsyncGenerator<AuditEntry> {
    const filter = { ...asked, engine: this.database.kind };
    let after: { timeMs: number; id: number } | undefined;
    for (;;) {
      this.assertOpen();
      const cursor = after;
      // Each batch in its own snapshot: the search's terms resolved in it too.
      const batchFilter = await withSearchTerms(this.database.db, filter, tenantOf(filter));
      const rows = await listRows(this.database.db, batchFilter, { limit: ITERATE_BATCH, after: cursor });
      for (const row of rows) yield entryOfRow(row.id, row.entry, row.tenant);
      if (rows.length < ITERATE_BATCH) return;
      const last = rows.at(-1)!;
      after = { timeMs: last.time_ms, id: last.id };
    }
  }

  async timeline(asked: AuditFilter, options: AuditTimelineOptions): Promise<AuditTimeline> {
    this.assertOpen();
    const filter = { ...asked, engine: this.database.kind };
    const now = this.now();
    const interval = options.interval ?? chooseInterval(filter.startMs, filter.endMs, now);
    // One snapshot, so the timeline's total agrees with a list's totalCount read at the same moment: the counts
    // are one statement, and a PostgreSQL search's terms are resolved in the same transaction.
    const read = async (reader: Db | Tx) => {
      const searched = await withSearchTerms(reader, filter, tenantOf(filter));
      const { totals, counts, names } = await timelineCells(reader, searched, interval, options.splitBy);
      const shown = new Set(rankSeries(totals).shown.map(([key]) => key));
      // The names that may have been shown but are not go to "Other" too.
      const folded = counts.map((count) =>
        count.key === null || shown.has(count.key) ? count : { ...count, key: null },
      );
      return shapeTimeline({
        interval,
        splitBy: options.splitBy,
        ...rangeOf(filter),
        now,
        counts: folded,
        names,
      });
    };
    if (filter.search === undefined) return read(this.database.db);
    return this.database.db.transaction().setIsolationLevel('repeatable read').execute(read);
  }

  async facets(tenant?: string): Promise<{ actionNames: string[]; userNames: string[] }> {
    this.assertOpen();
    const { db } = this.database;
    const only = tenantOf({ tenant });
    const actions = await db
      .selectFrom('audit_action_day_counts')
      .select((eb) => eb.fn.min('action_name').as('name'))
      .$if(only !== undefined, (q) => q.where('tenant', '=', only!))
      .groupBy('action_key')
      .execute();
    const users = await db
      .selectFrom('audit_user_day_counts')
      .select((eb) => eb.fn.min('user_name').as('name'))
      .$if(only !== undefined, (q) => q.where('tenant', '=', only!))
      .groupBy('user_key')
      .execute();
    return {
      actionNames: actions.map((row) => row.name).sort(compareNames),
      userNames: users.map((row) => row.name).sort(compareNames),
    };
  }

  async tenants(): Promise<AuditTenantSummary[]> {
    this.assertOpen();
    const rows = await this.database.db
      .selectFrom('audit_day_counts')
      .select(['tenant', (eb) => eb.fn.sum<number>('n').as('n'), (eb) => eb.fn.max('day').as('day')])
      .groupBy('tenant')
      .execute();
    const summaries = new Map<string, AuditTenantSummary>([[OWN_TENANT, { name: OWN_TENANT, entries: 0 }]]);
    for (const row of rows) {
      const newest = await this.database.db
        .selectFrom('audit_entries')
        .select((eb) => eb.fn.max('time_ms').as('t'))
        .where('tenant', '=', row.tenant)
        .where('time_ms', '>=', row.day * DAY_MS)
        .executeTakeFirst();
      const summary: AuditTenantSummary = { name: row.tenant, entries: row.n };
      // The newest day with a count has an entry, so the maximum exists.
      if (newest) summary.newest = new Date(newest.t).toISOString();
      summaries.set(row.tenant, summary);
    }
    return [...summaries.values()].sort((a, b) => compareNames(a.name, b.name));
  }

  async count(): Promise<number> {
    this.assertOpen();
    const row = await this.database.db
      .selectFrom('audit_day_counts')
      .select(sql<number>`coalesce(sum(n), 0)`.as('n'))
      .executeTakeFirst();
    return row?.n ?? 0;
  }

  async applyRetention(policy: RetentionPolicy): Promise<{ removed: number }> {
    this.assertOpen();
    return await this.serially(async () => {
      const removed = await moveToRemoved(
        this.database,
        await planRetention(this.database, policy),
        this.now(),
        'retention',
        this.chainSigner,
        policy.signal,
      );
      await purgeRemoved(this.database, this.now() - RESTORE_WINDOW_MS);
      return { removed };
    });
  }

  async removeResourceHistory(resource: Pick<AuditResource, 'type' | 'id'>): Promise<{ removed: number }> {
    this.assertOpen();
    return await this.serially(async () => ({
      removed: await moveToRemoved(
        this.database,
        await planHistoryRemoval(this.database, resource),
        this.now(),
        'resource-history',
        this.chainSigner,
      ),
    }));
  }

  async flush(): Promise<void> {
    this.assertOpen();
    await this.settle();
  }

  close(): Promise<void> {
    this.closing ??= this.settle();
    return this.closing;
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const run = this.maintenance.then(work, work);
    this.maintenance = run.catch(() => undefined);
    return this.track(run);
  }

  private track<T>(operation: Promise<T>): Promise<T> {
    this.pending.add(operation);
    const forget = (): void => {
      this.pending.delete(operation);
    };
    operation.then(forget, forget);
    return operation;
  }

  private async settle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
    await this.appends.idle();
  }

  private assertOpen(): void {
    if (this.closing) throw new AuditStoreClosedError();
  }
}

/** Case-insensitive order; spellings of one name in code-point order. */
function compareNames(a: string, b: string): number {
  const lowerA = a.toLowerCase();
  const lowerB = b.toLowerCase();
  if (lowerA !== lowerB) return lowerA < lowerB ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function rangeOf(filter: AuditFilter): { startMs: number | undefined; endMs: number | undefined } {
  return { startMs: filter.startMs, endMs: filter.endMs };
}
