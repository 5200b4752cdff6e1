import type { Database, Tx } from '../../storage/database.js';
import { GroupCommit } from '../../storage/group-commit.js';
import { RESTORE_WINDOW_MS } from '../../storage/restore-window.js';
import { locatePage } from '../../storage/time-buckets.js';
import type { MonitoringRecord, NewMonitoringRecord } from '../monitoring-record.js';
import type {
  MonitoringPage,
  MonitoringQuery,
  MonitoringRetentionPolicy,
  MonitoringStore,
  MonitoringStoreStats,
  MonitoringSummaryData,
  SummaryRequest,
} from '../monitoring-store.js';
import { normalizeRecord, recordTimeMs } from '../normalize-record.js';
import { filteredRecords, rollupSelection, storedTextFilter } from './monitoring-filter.js';
import { countBucketsByHour, countRecords, summarizeRecords } from './monitoring-reads.js';
import { purgeRemovedRecords, removeRecordsBefore } from './monitoring-removal.js';
import { insertRecords, MONITORING_SEQUENCE, type RecordBatch } from './monitoring-writes.js';
import { captureOfRow, RECORD_COLUMNS, recordOfRow } from './monitoring-rows.js';
import type { Logger } from '../../logging/logger.js';
import { MonitoringWriteThread } from './monitoring-write-thread.js';
import { ErrorCode } from '../../contracts/error-codes.js';
import { GatehouseError } from '../../errors/gatehouse-error.js';

export class MonitoringStoreClosedError extends GatehouseError {
  override name = 'MonitoringStoreClosedError';
  constructor() {
    super(ErrorCode.GH_ERR_STORE_CLOSED, 'The monitoring store is closed');
  }
}

/**
 * API Monitoring records in the Gatehouse database. Each batch from the recorder is one transaction: the records,
 * and the roll-ups (5-minute and hourly sums with duration histograms) that the summary and the counts read
 * instead of the records. Retention moves whole hours of records to `monitoring_records_removed`.
 */
export class SqlMonitoringStore implements MonitoringStore {
  private readonly pending = new Set<Promise<unknown>>();
  private closing: Promise<void> | undefined;
  private readonly appends = new GroupCommit<RecordBatch, number>((batches) => this.commit(batches), 100);

  /** On SQLite, the writer thread (PostgreSQL's driver does not hold the main thread while it writes). */
  private readonly thread: MonitoringWriteThread | undefined;

  constructor(
    private readonly database: Database,
    private readonly now: () => number = Date.now,
    logger?: Logger,
  ) {
    this.thread = database.kind === 'sqlite' ? MonitoringWriteThread.of(database, logger) : undefined;
  }

  /** The thread that wrote the last batch: 0 for the main thread. */
  get lastWriterThreadId(): number | undefined {
    return this.thread?.lastWriterThreadId;
  }

  async append(records: readonly NewMonitoringRecord[]): Promise<MonitoringRecord[]> {
    this.assertOpen();
    // The records as stored, for the caller: `write` keeps exactly those with a usable time, in order.
    const stored = records.flatMap((input) => {
      const normalized = normalizeRecord(input);
      return normalized ? [withoutAbsentFields(normalized.record)] : [];
    });
    const { idOf } = await this.store(records);
    stored.forEach((record, k) => (record.id = idOf(k)));
    return stored;
  }

  /** `append` for the recorder, which only counts the records kept: no record objects are made. */
  async write(records: readonly NewMonitoringRecord[]): Promise<number> {
    this.assertOpen();
    return (await this.store(records)).kept;
  }

  /** Writes the records with a usable time: how many, and the id of the k-th of them. */
  private store(
    records: readonly NewMonitoringRecord[],
  ): Promise<{ idOf: (k: number) => number; kept: number }> {
    const thread = this.thread;
    if (thread) {
      return this.track(
        (async () => {
          const { firstIds, rows } = await thread.write(records, this.now());
          return { idOf: (k: number) => idInChunks(firstIds, rows, k), kept: sum(rows) };
        })(),
      );
    }
    return this.track(
      (async () => {
        const times = new Float64Array(records.length);
        let kept = 0;
        for (let index = 0; index < records.length; index++) {
          const timeMs = recordTimeMs(records[index]!);
          times[index] = Number.isFinite(timeMs) ? timeMs : Number.NaN;
          if (Number.isFinite(timeMs)) kept++;
        }
        if (kept === 0) return { idOf: () => 0, kept };
        const firstId = await this.appends.submit({ records, times, kept });
        return { idOf: (k: number) => firstId + k, kept };
      })(),
    );
  }

  /** One transaction for the batches that arrived together; resolves with each batch's first id. */
  private async commit(batches: RecordBatch[]): Promise<number[]> {
    const total = batches.reduce((sum, batch) => sum + batch.kept, 0);
    let first = 0;
    await this.database.transaction(
      async (trx) => {
        first = await this.database.reserveIds(trx, MONITORING_SEQUENCE, total);
        await insertRecords(this.database, trx, batches, first, this.now());
      },
      { relaxed: true },
    );
    const firstIds: number[] = [];
    for (const batch of batches) {
      firstIds.push(first);
      first += batch.kept;
    }
    return firstIds;
  }

  async query(input: MonitoringQuery): Promise<MonitoringPage> {
    this.assertOpen();
    const query = storedTextFilter(input);
    if (!Number.isInteger(query.pageNumber) || query.pageNumber < 1)
      throw new RangeError('pageNumber must be >= 1');
    if (!Number.isInteger(query.pageSize) || query.pageSize < 1)
      throw new RangeError('pageSize must be >= 1');
    const skip = (query.pageNumber - 1) * query.pageSize;
    const selection = rollupSelection(query);
    return this.database.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        let totalCount: number;
        let endMs = query.endMs;
        let offset = skip;
        if (selection) {
          const buckets = await countBucketsByHour(trx, query, selection);
          totalCount = buckets.reduce((sum, bucket) => sum + bucket.count, 0);
          const start = locatePage(buckets, skip);
          if (!start) return { items: [], totalCount };
          endMs = endMs === undefined ? start.endMs : Math.min(endMs, start.endMs);
          offset = start.offset;
        } else {
          totalCount = await countRecords(trx, query, { seek: true });
          if (skip >= totalCount) return { items: [], totalCount };
          if (query.method !== undefined) return { items: await this.seekPage(trx, query, skip), totalCount };
        }
        const rows = await filteredRecords(trx, { ...query, endMs })
          .select(RECORD_COLUMNS)
          .orderBy('time_ms', 'desc')
          .orderBy('id', 'desc')
          .limit(query.pageSize)
          .offset(offset)
          .execute();
        return { items: rows.map(recordOfRow), totalCount };
      });
  }

  /**
   * A page of one method: its ids read from the method index, which holds a method's records in the list's order
   * (and their durations), then the page's records by id.
   */
  private async seekPage(trx: Tx, query: MonitoringQuery, skip: number): Promise<MonitoringRecord[]> {
    const ids = filteredRecords(trx, query, { seek: true })
      .select('id')
      .orderBy('time_ms', 'desc')
      .orderBy('id', 'desc')
      .limit(query.pageSize)
      .offset(skip);
    const rows = await trx
      .selectFrom('monitoring_records')
      .select(RECORD_COLUMNS)
      .where('id', 'in', ids)
      .orderBy('time_ms', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map(recordOfRow);
  }

  async get(id: number): Promise<MonitoringRecord | undefined> {
    this.assertOpen();
    const row = await this.database.db
      .selectFrom('monitoring_records')
      .select([...RECORD_COLUMNS, 'capture'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return undefined;
    const record = recordOfRow(row);
    const capture = captureOfRow(row.capture);
    return capture ? { ...record, capture } : record;
  }

  async summarize(request: SummaryRequest): Promise<MonitoringSummaryData> {
    this.assertOpen();
    const filter = storedTextFilter(request.filter);
    const selection = rollupSelection(filter);
    return this.database.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute((trx) => summarizeRecords(trx, { ...request, filter }, selection));
  }

  async oldestTimeMs(): Promise<number | undefined> {
    this.assertOpen();
    const row = await this.database.db
      .selectFrom('monitoring_records')
      .select((eb) => eb.fn.min('time_ms').as('oldest'))
      .executeTakeFirst();
    return row?.oldest == null ? undefined : row.oldest;
  }

  async applyRetention(policy: MonitoringRetentionPolicy): Promise<{ removed: number }> {
    this.assertOpen();
    return this.track(
      (async () => {
        const removed = await removeRecordsBefore(
          this.database,
          policy.now - policy.maxAgeMs,
          this.now(),
          policy.signal,
        );
        await purgeRemovedRecords(this.database, this.now() - RESTORE_WINDOW_MS);
        return { removed };
      })(),
    );
  }

  async stats(): Promise<MonitoringStoreStats> {
    this.assertOpen();
    const row = await this.database.db
      .selectFrom('monitoring_rollups')
      .select((eb) => eb.fn.sum<number>('n').as('n'))
      .where('granularity_ms', '=', 3_600_000)
      .where('dimension', '=', '')
      .executeTakeFirst();
    return { records: row?.n ?? 0 };
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
    })();
    return this.closing;
  }

  private track<T>(operation: Promise<T>): Promise<T> {
    this.pending.add(operation);
    const forget = (): void => {
      this.pending.delete(operation);
    };
    operation.then(forget, forget);
    return operation;
  }

  private assertOpen(): void {
    if (this.closing) throw new MonitoringStoreClosedError();
  }
}

/** The id of the k-th row of chunks of `rows` rows whose ids start at `firstIds`. */
function idInChunks(firstIds: readonly number[], rows: readonly number[], k: number): number {
  let chunk = 0;
  while (k >= rows[chunk]!) k -= rows[chunk++]!;
  return firstIds[chunk]! + k;
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

/** `normalizeRecord` writes every field (absent ones undefined); callers get the record as a query returns it. */
function withoutAbsentFields(record: MonitoringRecord): MonitoringRecord {
  for (const key of Object.keys(record) as (keyof MonitoringRecord)[]) {
    if (record[key] === undefined) delete record[key];
  }
  return record;
}
