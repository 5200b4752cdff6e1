import { PendingOperations, SerialQueue, type SegmentLog } from '../../storage/index.js';
import type { MonitoringRecord, NewMonitoringRecord } from '../monitoring-record.js';
import type {
  MonitoringPage,
  MonitoringQuery,
  MonitoringStore,
  MonitoringStoreStats,
  MonitoringSummaryData,
  SummaryRequest,
} from '../monitoring-store.js';
import type { MonitoringIndex } from './monitoring-index.js';
import { normalizeRecord } from './normalize-record.js';
import { planScan, selectPage } from './query-plan.js';
import { BlockBuilder, recordLengthAt } from './block-codec.js';
import { decodeRecord } from './record-codec.js';
import { summarize } from './summarize.js';
import { ErrorCode } from '../../contracts/error-codes.js';
import { GatehouseError } from '../../errors/gatehouse-error.js';

export class MonitoringStoreClosedError extends GatehouseError {
  override name = 'MonitoringStoreClosedError';
  constructor() {
    super(ErrorCode.GH_ERR_STORE_CLOSED, 'The monitoring store is closed');
  }
}

interface AcceptedRecord {
  timeMs: number;
  record: MonitoringRecord;
  /** Where the record starts in its block. */
  inner: number;
}

/** `MonitoringStore` over a segment log: records are appended in blocks, the index lives in memory. */
export class FileMonitoringStore implements MonitoringStore {
  private readonly builder = new BlockBuilder();
  private readonly appends = new PendingOperations();
  private readonly maintenance = new SerialQueue();
  private closing: Promise<void> | undefined;

  constructor(
    private readonly log: SegmentLog,
    private readonly index: MonitoringIndex,
  ) {}

  async append(records: readonly NewMonitoringRecord[]): Promise<MonitoringRecord[]> {
    this.assertOpen();
    const batch = this.log.createBatch();
    const accepted: AcceptedRecord[] = [];
    /** Index into `accepted` of each block's first record. */
    const blockStarts: number[] = [];
    for (const input of records) {
      const normalized = normalizeRecord(input);
      if (!normalized) continue;
      if (this.builder.count === 0) blockStarts.push(accepted.length);
      const { record, timeMs } = normalized;
      record.id = this.index.allocateId();
      const inner = this.builder.add(record.id, timeMs, record);
      accepted.push({ inner, timeMs, record });
      if (this.builder.full) batch.addPayload(this.builder.take());
    }
    if (this.builder.count > 0) batch.addPayload(this.builder.take());
    if (accepted.length === 0) return [];
    const rows = new Uint32Array(accepted.length);
    // Rows join the index as their block commits, and the time order in the same tick as the last block:
    // a query sees the whole batch or none of it.
    await this.appends.track(
      this.log.appendBatch(batch, (location, block) => {
        const end = blockStarts[block + 1] ?? accepted.length;
        for (let k = blockStarts[block]!; k < end; k++) {
          const { timeMs, record, inner } = accepted[k]!;
          rows[k] = this.index.addRecord(record.id, timeMs, record, location, inner);
        }
        if (block === blockStarts.length - 1) this.index.order.insertBatch(rows);
      }),
    );
    return accepted.map(({ record }) => record);
  }

  async query(query: MonitoringQuery): Promise<MonitoringPage> {
    this.assertOpen();
    if (!Number.isInteger(query.pageNumber) || query.pageNumber < 1)
      throw new RangeError('pageNumber must be >= 1');
    if (!Number.isInteger(query.pageSize) || query.pageSize < 1)
      throw new RangeError('pageSize must be >= 1');
    const plan = planScan(this.index, query);
    if (!plan) return { items: [], totalCount: 0 };
    const skip = (query.pageNumber - 1) * query.pageSize;
    const { rows, total } = selectPage(this.index, plan, skip, query.pageSize);
    // Locations are taken and handed to the log in the same tick as planning, so retention cannot delete a
    // segment between the two (the log pins the files a read names before its first await).
    const { columns } = this.index;
    const inners = rows.map((row) => columns.inners[row]!);
    const blocks = await this.log.readRecords(rows.map((row) => columns.location(row)));
    return { items: blocks.map((block, k) => recordInBlock(block, inners[k]!)), totalCount: total };
  }

  async get(id: number): Promise<MonitoringRecord | undefined> {
    this.assertOpen();
    const { columns } = this.index;
    const row = columns.findRow(id);
    if (row < 0) return undefined;
    const inner = columns.inners[row]!;
    return recordInBlock(await this.log.readRecord(columns.location(row)), inner);
  }

  summarize(request: SummaryRequest): MonitoringSummaryData {
    this.assertOpen();
    return summarize(this.index, request);
  }

  oldestTimeMs(): number | undefined {
    const { order, columns } = this.index;
    return order.length > 0 ? columns.times[order.rows[0]!] : undefined;
  }

  applyRetention(policy: { now: number; maxAgeMs: number }): Promise<{ removed: number }> {
    this.assertOpen();
    return this.maintenance.run(() => this.removeOlderThan(policy.now - policy.maxAgeMs));
  }

  stats(): MonitoringStoreStats {
    let bytes = 0;
    for (const segment of this.log.segments()) bytes += segment.size;
    return { records: this.index.columns.count, bytes };
  }

  /** Bytes of the in-memory index (reported by the metrics and the benchmark). */
  indexMemoryBytes(): number {
    return this.index.memoryBytes;
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.appends.settle();
      await this.maintenance.idle();
      await this.log.close();
    })();
    return this.closing;
  }

  private async removeOlderThan(cutoffMs: number): Promise<{ removed: number }> {
    // A batch that rolled the log over may have sealed a segment whose rows are not indexed yet; such a
    // segment must not look empty. So plan at a moment with no append in flight (planning is synchronous,
    // and appends started afterwards only write to the active segment).
    await this.appends.settle();
    const removed = this.index.removeOlderThan(cutoffMs);
    const used = this.index.rowsPerSegment();
    const emptied = this.log
      .segments()
      .filter((segment) => segment.sealed && !used.has(segment.seq))
      .map((segment) => segment.seq);
    for (const seq of emptied) {
      await this.log.rewriteSegment(
        seq,
        () => null,
        () => undefined,
      );
    }
    return { removed };
  }

  private assertOpen(): void {
    if (this.closing) throw new MonitoringStoreClosedError();
  }
}

function recordInBlock(block: Buffer, inner: number): MonitoringRecord {
  return decodeRecord(block, inner, recordLengthAt(block, inner));
}
