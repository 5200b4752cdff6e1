import { constants, mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import * as path from 'node:path';
import { fsyncDirectory } from './durable-fs.js';
import { FrameBatch, singleFrameRun } from './frame-batch.js';
import { GroupCommitWriter, type CommitCallback } from './group-commit-writer.js';
import { readSegmentRecords } from './record-reader.js';
import { SegmentFile, segmentFileName } from './segment-file.js';
import { discoverSegments, recoverActiveSegment, reporterFor } from './segment-recovery.js';
import { rewriteSegmentFile, type Relocations, type RewriteDecision } from './segment-rewriter.js';
import { SegmentScanner } from './segment-scanner.js';
import type { LogPosition, RecordLocation, ScannedRecord, SegmentInfo, WarningReporter } from './types.js';

export interface SegmentLogOptions {
  dir: string;
  /** A segment is sealed and a new one started once it would grow past this. Default 64 MiB. */
  segmentMaxBytes?: number;
  /** Larger frames are treated as corrupt when reading. Default 64 MiB. */
  maxRecordBytes?: number;
  /** Upper bound of one group-commit batch. Default 8 MiB. */
  maxBatchBytes?: number;
  onWarning?: WarningReporter;
}

const MiB = 1024 * 1024;

/**
 * An append-only log of framed records split into numbered segment files. Appends are group-committed
 * (durable when their promise resolves); sealed segments can be rewritten to drop dead records.
 */
export class SegmentLog {
  private readonly files = new Map<number, SegmentFile>();
  private active!: SegmentFile;
  private readonly writer: GroupCommitWriter;
  private readonly rewriting = new Set<number>();
  private closed = false;
  readonly segmentMaxBytes: number;
  readonly maxRecordBytes: number;
  private readonly warn: WarningReporter;

  private constructor(
    readonly dir: string,
    options: SegmentLogOptions,
  ) {
    this.segmentMaxBytes = options.segmentMaxBytes ?? 64 * MiB;
    this.maxRecordBytes = options.maxRecordBytes ?? 64 * MiB;
    this.warn = options.onWarning ?? defaultWarningReporter;
    this.writer = new GroupCommitWriter(
      {
        activeSegment: () => this.active,
        rollSegment: () => this.rollSegment(),
        segmentMaxBytes: this.segmentMaxBytes,
      },
      options.maxBatchBytes ?? 8 * MiB,
    );
  }

  static async open(options: SegmentLogOptions): Promise<SegmentLog> {
    const log = new SegmentLog(options.dir, options);
    await mkdir(options.dir, { recursive: true });
    const found = await discoverSegments(options.dir, log.warn);
    for (const { seq, generation } of found) {
      const file = path.join(options.dir, segmentFileName(seq, generation));
      const handle = await open(file, 'r+');
      const { size } = await stat(file);
      log.files.set(seq, new SegmentFile(options.dir, seq, generation, handle, size));
    }
    const last = found.at(-1);
    if (last) {
      log.active = log.files.get(last.seq)!;
      await recoverActiveSegment(log.active, log.maxRecordBytes, log.warn);
    } else {
      log.active = await log.createSegment(1);
    }
    return log;
  }

  /** Appends one record; resolves (after `onCommitted` ran) once it is durable. */
  async append(
    payload: Uint8Array,
    onCommitted?: (location: RecordLocation) => void,
  ): Promise<RecordLocation> {
    this.assertOpen();
    this.checkSize(payload.length);
    const [location] = await this.writer.enqueue([singleFrameRun(payload)], onCommitted);
    return location!;
  }

  /**
   * Appends many records with large writes and one fsync at the end (more when segments roll). Use for
   * imports; keep each call to a few megabytes so memory stays bounded.
   */
  appendBulk(payloads: readonly Uint8Array[], onCommitted?: CommitCallback): Promise<RecordLocation[]> {
    const batch = this.createBatch();
    for (const payload of payloads) batch.addPayload(payload);
    return this.appendBatch(batch, onCommitted);
  }

  /** A builder whose frames `appendBatch` writes without copying them again. */
  createBatch(): FrameBatch {
    return new FrameBatch(this.maxRecordBytes);
  }

  /** Like `appendBulk`, for records built in a `FrameBatch`; `onCommitted` gets each record's position. */
  appendBatch(batch: FrameBatch, onCommitted?: CommitCallback): Promise<RecordLocation[]> {
    this.assertOpen();
    return this.writer.enqueue(batch.finish(), onCommitted);
  }

  /** Waits until everything appended so far is durable. */
  async sync(): Promise<void> {
    await this.writer.drain();
  }

  /** The end of the committed log: appending starts here. */
  endPosition(): LogPosition {
    return { segment: this.active.seq, offset: this.active.size };
  }

  segments(): SegmentInfo[] {
    return [...this.files.values()]
      .sort((a, b) => a.seq - b.seq)
      .map((file) => ({
        seq: file.seq,
        generation: file.generation,
        size: file.size,
        sealed: file !== this.active,
      }));
  }

  async readRecord(location: RecordLocation): Promise<Buffer> {
    const [payload] = await this.readRecords([location]);
    return payload!;
  }

  /** Reads payloads in the order asked; neighbouring records of a segment share one pread. */
  async readRecords(locations: readonly RecordLocation[]): Promise<Buffer[]> {
    this.assertOpen();
    const bySegment = new Map<number, number[]>();
    locations.forEach((location, index) => {
      const group = bySegment.get(location.segment);
      if (group) group.push(index);
      else bySegment.set(location.segment, [index]);
    });
    // Acquire every file before the first await so a concurrent compaction cannot close one under us.
    const acquired: SegmentFile[] = [];
    try {
      for (const seq of bySegment.keys()) {
        const file = this.files.get(seq);
        if (!file) throw new Error(`Segment ${seq} does not exist (record was compacted away?)`);
        file.acquire();
        acquired.push(file);
      }
      const payloads = new Array<Buffer>(locations.length);
      await Promise.all(
        acquired.map((file) =>
          readSegmentRecords(file, locations, bySegment.get(file.seq)!, this.maxRecordBytes, payloads),
        ),
      );
      return payloads;
    } finally {
      await Promise.all(acquired.map((file) => file.release()));
    }
  }

  /**
   * Every valid record from `from` on, in log order. Payloads are views valid until the next record is
   * requested. Meant for startup (replay, rebuild): records appended during the scan may be missed.
   */
  async *scan(from: LogPosition = { segment: 0, offset: 0 }): AsyncGenerator<ScannedRecord> {
    this.assertOpen();
    const files = [...this.files.values()].filter((f) => f.seq >= from.segment).sort((a, b) => a.seq - b.seq);
    for (const file of files) {
      file.acquire();
      try {
        const scanner = new SegmentScanner({
          segment: file.seq,
          handle: file.handle,
          from: file.seq === from.segment ? from.offset : 0,
          end: file.size,
          maxRecordBytes: this.maxRecordBytes,
          onCorruption: reporterFor(this.warn, 'sealed'),
        });
        yield* scanner.records();
      } finally {
        await file.release();
      }
    }
  }

  /**
   * Compaction: rewrites sealed segment `seq` keeping what `decide` keeps (new file, fsync, atomic rename,
   * fsync of the directory). `onSwapped` runs synchronously at the moment reads switch to the new file, so
   * the caller can move its record locations in the same tick. A segment with nothing kept is deleted.
   */
  async rewriteSegment(
    seq: number,
    decide: RewriteDecision,
    onSwapped: (relocations: Relocations, deleted: boolean) => void,
  ): Promise<{ sizeBefore: number; sizeAfter: number }> {
    this.assertOpen();
    const source = this.files.get(seq);
    if (!source) throw new Error(`Segment ${seq} does not exist`);
    if (source === this.active)
      throw new Error(`Segment ${seq} is the active segment and cannot be rewritten`);
    if (this.rewriting.has(seq)) throw new Error(`Segment ${seq} is already being rewritten`);
    this.rewriting.add(seq);
    try {
      const generation = source.generation + 1;
      const finalPath = path.join(this.dir, segmentFileName(seq, generation));
      source.acquire();
      const outcome = await rewriteSegmentFile(
        source,
        `${finalPath}.tmp`,
        decide,
        this.maxRecordBytes,
        reporterFor(this.warn, 'sealed'),
      ).finally(() => source.release());
      if (outcome.size === 0) {
        this.files.delete(seq);
        onSwapped(outcome.relocations, true);
      } else {
        await rename(`${finalPath}.tmp`, finalPath);
        await fsyncDirectory(this.dir);
        const handle = await open(finalPath, 'r');
        this.files.set(seq, new SegmentFile(this.dir, seq, generation, handle, outcome.size));
        onSwapped(outcome.relocations, false);
      }
      await unlink(source.path);
      await fsyncDirectory(this.dir);
      await source.retire();
      return { sizeBefore: source.size, sizeAfter: outcome.size };
    } finally {
      this.rewriting.delete(seq);
    }
  }

  /** Waits for pending appends, then closes every file. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.writer.drain();
    await Promise.all([...this.files.values()].map((file) => file.retire()));
    this.files.clear();
  }

  private checkSize(payloadSize: number): void {
    if (payloadSize > this.maxRecordBytes) {
      throw new Error(`Record of ${payloadSize} bytes exceeds the limit of ${this.maxRecordBytes}`);
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('The segment log is closed');
  }

  private async rollSegment(): Promise<SegmentFile> {
    this.active = await this.createSegment(this.active.seq + 1);
    return this.active;
  }

  private async createSegment(seq: number): Promise<SegmentFile> {
    const file = path.join(this.dir, segmentFileName(seq, 0));
    const handle = await open(file, constants.O_RDWR | constants.O_CREAT | constants.O_EXCL);
    await fsyncDirectory(this.dir);
    const segment = new SegmentFile(this.dir, seq, 0, handle, 0);
    this.files.set(seq, segment);
    return segment;
  }
}

function defaultWarningReporter(message: string, details: Record<string, unknown>): void {
  console.warn(`[storage] ${message}`, details);
}
