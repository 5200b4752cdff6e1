import { writeFully } from './durable-fs.js';
import { FRAME_HEADER_BYTES } from './frame.js';
import type { FrameRun } from './frame-batch.js';
import type { SegmentFile } from './segment-file.js';
import type { RecordLocation } from './types.js';

/** Large writes are cut into pieces of this size so a bulk import never builds one huge buffer. */
const WRITE_CHUNK_BYTES = 8 * 1024 * 1024;

export type CommitCallback = (location: RecordLocation, index: number) => void;

interface CommitJob {
  runs: readonly FrameRun[];
  bytes: number;
  onCommitted: CommitCallback | undefined;
  resolve: (locations: RecordLocation[]) => void;
  reject: (error: unknown) => void;
}

export interface WriterTarget {
  activeSegment: () => SegmentFile;
  /** Seals the active segment and opens the next one (created and made durable in its directory). */
  rollSegment: () => Promise<SegmentFile>;
  readonly segmentMaxBytes: number;
}

/**
 * Group commit: while one batch is being written and fsync'd, new jobs queue up; the next batch takes all
 * of them (up to `maxBatchBytes`) into one write and one fdatasync. A job's promise resolves, and its
 * `onCommitted` runs (in log order, synchronously), only after its bytes are durable.
 *
 * After a failed write or fsync the writer refuses all further work: what reached the disk is unknown, and
 * retrying an fsync can report success for data the kernel already dropped.
 */
export class GroupCommitWriter {
  private readonly queue: CommitJob[] = [];
  private running: Promise<void> | undefined;
  private failure: Error | undefined;

  constructor(
    private readonly target: WriterTarget,
    private readonly maxBatchBytes: number,
  ) {}

  enqueue(runs: readonly FrameRun[], onCommitted?: CommitCallback): Promise<RecordLocation[]> {
    if (this.failure) return Promise.reject(this.failure);
    let bytes = 0;
    for (const run of runs) bytes += run.bytes.length;
    return new Promise((resolve, reject) => {
      this.queue.push({ runs, bytes, onCommitted, resolve, reject });
      this.running ??= this.run();
    });
  }

  /** Resolves once everything queued before it is durable. */
  async drain(): Promise<void> {
    while (this.running) await this.running;
    if (this.failure) throw this.failure;
  }

  private async run(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.takeBatch();
      let locations: RecordLocation[][];
      try {
        locations = await this.writeBatch(batch);
      } catch (error) {
        this.fail(error, batch);
        break;
      }
      batch.forEach((job, jobIndex) => completeJob(job, locations[jobIndex]!));
    }
    this.running = undefined;
  }

  private takeBatch(): CommitJob[] {
    let bytes = 0;
    let count = 0;
    while (count < this.queue.length) {
      const next = this.queue[count]!;
      if (count > 0 && bytes + next.bytes > this.maxBatchBytes) break;
      bytes += next.bytes;
      count++;
    }
    return this.queue.splice(0, count);
  }

  private async writeBatch(batch: readonly CommitJob[]): Promise<RecordLocation[][]> {
    const { segmentMaxBytes } = this.target;
    let segment = this.target.activeSegment();
    let offset = segment.size;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let pendingStart = offset;
    const writePending = async (): Promise<void> => {
      if (pending.length === 0) return;
      const data = pending.length === 1 ? pending[0]! : Buffer.concat(pending, pendingBytes);
      await writeFully(segment.handle, data, pendingStart);
      pending = [];
      pendingBytes = 0;
      pendingStart = offset;
    };
    const addBytes = async (bytes: Buffer): Promise<void> => {
      pending.push(bytes);
      pendingBytes += bytes.length;
      offset += bytes.length;
      if (pendingBytes >= WRITE_CHUNK_BYTES) await writePending();
    };
    const allLocations: RecordLocation[][] = [];
    for (const job of batch) {
      const locations: RecordLocation[] = [];
      for (const run of job.runs) {
        // Frames go to the active segment until the next one would overflow it; then it is sealed.
        let runStart = 0;
        let position = 0;
        for (const size of run.payloadSizes) {
          const frameLength = FRAME_HEADER_BYTES + size;
          if (
            offset + (position - runStart) > 0 &&
            offset + (position - runStart) + frameLength > segmentMaxBytes
          ) {
            if (position > runStart) await addBytes(run.bytes.subarray(runStart, position));
            runStart = position;
            await writePending();
            await segment.handle.datasync();
            segment.size = offset;
            segment = await this.target.rollSegment();
            offset = 0;
            pendingStart = 0;
          }
          locations.push({ segment: segment.seq, offset: offset + (position - runStart), size });
          position += frameLength;
        }
        if (position > runStart) await addBytes(run.bytes.subarray(runStart, position));
      }
      allLocations.push(locations);
    }
    if (offset !== segment.size) {
      await writePending();
      await segment.handle.datasync();
      segment.size = offset;
    }
    return allLocations;
  }

  private fail(error: unknown, batch: readonly CommitJob[]): void {
    const cause = error instanceof Error ? error : new Error(String(error));
    this.failure = new Error(
      `The log can no longer be written after a failed write or fsync: ${cause.message}`,
      {
        cause,
      },
    );
    for (const job of [...batch, ...this.queue.splice(0)]) job.reject(this.failure);
  }
}

function completeJob(job: CommitJob, locations: RecordLocation[]): void {
  try {
    if (job.onCommitted) locations.forEach(job.onCommitted);
  } catch (error) {
    job.reject(error);
    return;
  }
  job.resolve(locations);
}
