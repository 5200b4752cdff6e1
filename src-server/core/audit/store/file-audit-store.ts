import * as path from 'node:path';
import type {
  AuditEntry,
  AuditFilter,
  AuditPage,
  AuditQuery,
  AuditResource,
  AuditStore,
  ImportProgress,
  ImportResult,
  NewAuditEntry,
  RetentionPolicy,
} from '../audit-entry.js';
import {
  PendingOperations,
  SerialQueue,
  writeFileAtomic,
  type SegmentLog,
  type WarningReporter,
} from '../../storage/index.js';
import type { AuditIndex } from './audit-index.js';
import { compactSegments } from './compaction.js';
import { contentHash } from './content-hash.js';
import { importEntries } from './import-entries.js';
import { normalizeEntry, withId } from './normalize-entry.js';
import { planScan, selectAfter, selectPage } from './query-plan.js';
import { decodeEntryPayload, encodeEntryRecord, encodeTombstoneRecord } from './record-codec.js';
import { planResourceHistoryRemoval, planRetention } from './retention-plan.js';
import { encodeSnapshot } from './snapshot-codec.js';
import { ErrorCode } from '../../contracts/error-codes.js';
import { GatehouseError } from '../../errors/gatehouse-error.js';

export const SNAPSHOT_FILE_NAME = 'index.snapshot';
const TOMBSTONE_IDS_PER_RECORD = 65_536;
const ITERATE_BATCH = 512;

export class AuditStoreClosedError extends GatehouseError {
  override name = 'AuditStoreClosedError';
  constructor() {
    super(ErrorCode.GH_ERR_STORE_CLOSED, 'The audit store is closed');
  }
}

export interface FileAuditStoreSettings {
  dir: string;
  warn: WarningReporter;
  /** Write a snapshot after this many records were applied since the last one. */
  snapshotEveryRecords: number;
}

export class FileAuditStore implements AuditStore {
  private readonly maintenance = new SerialQueue();
  private readonly pending = new PendingOperations();
  private closing: Promise<void> | undefined;
  private snapshotVersion = -1;
  private snapshotScheduled = false;
  private recordsAtSnapshot = 0;
  private recordsApplied = 0;
  private importsRunning = 0;

  constructor(
    private readonly log: SegmentLog,
    private readonly index: AuditIndex,
    private readonly settings: FileAuditStoreSettings,
  ) {}

  async append(input: NewAuditEntry): Promise<AuditEntry> {
    this.assertOpen();
    const { entry: normalized, timeMs } = normalizeEntry(input);
    const entry = withId(this.index.allocateId(), normalized);
    const hash = contentHash(normalized, timeMs);
    const row = this.index.pendingRow(entry, timeMs, hash);
    await this.pending.track(
      this.log.append(encodeEntryRecord(entry, hash), (location) => {
        this.index.addRow(row, location, true);
        this.countApplied(1);
      }),
    );
    return entry;
  }

  async importEntries(
    entries: AsyncIterable<NewAuditEntry | readonly NewAuditEntry[]> | Iterable<NewAuditEntry>,
    onProgress?: (progress: ImportProgress) => void,
  ): Promise<ImportResult> {
    this.assertOpen();
    this.importsRunning++;
    try {
      const result = await this.pending.track(importEntries(this.log, this.index, entries, onProgress));
      this.countApplied(result.added);
      return result;
    } finally {
      this.importsRunning--;
    }
  }

  async query(query: AuditQuery): Promise<AuditPage> {
    this.assertOpen();
    if (!Number.isInteger(query.pageNumber) || query.pageNumber < 1)
      throw new RangeError('pageNumber must be >= 1');
    if (!Number.isInteger(query.pageSize) || query.pageSize < 1)
      throw new RangeError('pageSize must be >= 1');
    const plan = planScan(this.index, query);
    if (!plan) return { items: [], totalCount: 0 };
    const { rows, total } = selectPage(plan, (query.pageNumber - 1) * query.pageSize, query.pageSize);
    const payloads = await this.log.readRecords(rows.map((row) => this.index.location(row)));
    return { items: payloads.map(decodeEntryPayload), totalCount: total };
  }

  async *iterate(filter: AuditFilter): AsyncGenerator<AuditEntry> {
    let after: { timeMs: number; id: number } | undefined;
    for (;;) {
      this.assertOpen();
      const plan = planScan(this.index, filter);
      if (!plan) return;
      const rows = selectAfter(plan, after, ITERATE_BATCH);
      if (rows.length === 0) return;
      const last = rows.at(-1)!;
      // The cursor is an (entry time, id) pair, not a position: rows may be added or compacted meanwhile.
      after = { timeMs: this.index.columns.times[last]!, id: this.index.columns.ids[last]! };
      const payloads = await this.log.readRecords(rows.map((row) => this.index.location(row)));
      for (const payload of payloads) yield decodeEntryPayload(payload);
    }
  }

  facets(): { actionNames: string[]; userNames: string[] } {
    this.assertOpen();
    return this.index.facets();
  }

  count(): number {
    this.assertOpen();
    return this.index.liveCount;
  }

  async applyRetention(policy: RetentionPolicy): Promise<{ removed: number }> {
    this.assertOpen();
    return this.pending.track(
      this.maintenance.run(() => this.removeAndCompact(() => planRetention(this.index, policy))),
    );
  }

  async removeResourceHistory(resource: Pick<AuditResource, 'type' | 'id'>): Promise<{ removed: number }> {
    this.assertOpen();
    return this.pending.track(
      this.maintenance.run(() =>
        this.removeAndCompact(() => planResourceHistoryRemoval(this.index, resource)),
      ),
    );
  }

  async flush(): Promise<void> {
    this.assertOpen();
    await this.pending.settle();
    await this.log.sync();
    await this.maintenance.run(() => this.writeSnapshot());
  }

  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    await this.pending.settle();
    await this.maintenance.idle();
    try {
      await this.writeSnapshot();
    } catch (error) {
      this.settings.warn('Could not write the index snapshot on close; the next start replays the log', {
        error: (error as Error).message,
      });
    }
    await this.log.close();
  }

  /** Plans removals, makes them durable as tombstones, then reclaims space. Runs in the maintenance queue. */
  private async removeAndCompact(plan: () => number[]): Promise<{ removed: number }> {
    const rows = plan();
    const ids = rows.map((row) => this.index.columns.ids[row]!);
    const payloads: Buffer[] = [];
    for (let start = 0; start < ids.length; start += TOMBSTONE_IDS_PER_RECORD) {
      payloads.push(encodeTombstoneRecord(ids.slice(start, start + TOMBSTONE_IDS_PER_RECORD)));
    }
    let removed = 0;
    if (payloads.length > 0) {
      const dead: number[] = [];
      await this.log.appendBulk(payloads, (location, position) => {
        const chunk = ids.slice(
          position * TOMBSTONE_IDS_PER_RECORD,
          (position + 1) * TOMBSTONE_IDS_PER_RECORD,
        );
        for (const row of this.index.markRemoved(chunk, location)) dead.push(row);
        if (position === payloads.length - 1) this.index.lists.dropDead(dead);
      });
      removed = dead.length;
    }
    const compacted = await compactSegments(this.log, this.index);
    // Compaction moved records: an older snapshot no longer matches the log, so take a new one now.
    if (removed > 0 || compacted > 0) await this.writeSnapshot();
    return { removed };
  }

  private async writeSnapshot(): Promise<void> {
    if (this.index.version === this.snapshotVersion) return;
    const version = this.index.version;
    const applied = this.recordsApplied;
    const chunks = encodeSnapshot(this.index, this.log.segments());
    await writeFileAtomic(path.join(this.settings.dir, SNAPSHOT_FILE_NAME), chunks);
    this.snapshotVersion = version;
    this.recordsAtSnapshot = applied;
  }

  private countApplied(records: number): void {
    this.recordsApplied += records;
    const due = this.recordsApplied - this.recordsAtSnapshot >= this.settings.snapshotEveryRecords;
    if (!due || this.snapshotScheduled || this.importsRunning > 0 || this.closing) return;
    this.snapshotScheduled = true;
    void this.pending.track(
      this.maintenance
        .run(() => this.writeSnapshot())
        .catch((error: unknown) => {
          this.settings.warn('Could not write the periodic index snapshot', {
            error: (error as Error).message,
          });
        })
        .finally(() => {
          this.snapshotScheduled = false;
        }),
    );
  }

  private assertOpen(): void {
    if (this.closing) throw new AuditStoreClosedError();
  }
}
