import type { Logger } from '../logging/logger.js';
import type { MonitoringSink, NewMonitoringRecord } from './monitoring-record.js';
import { RecordRing } from './record-ring.js';

/** Why a record never reached the store. */
export const DROP_REASONS = ['buffer_full', 'write_failed', 'invalid', 'closed'] as const;
export type DropReason = (typeof DROP_REASONS)[number];

export interface RecorderTuning {
  /** Records held in memory at most; when full, the oldest unflushed record is dropped. Default 20,000. */
  capacity: number;
  /** A flush starts as soon as this many records wait. Default 1,000. */
  batchSize: number;
  /** Otherwise waiting records are flushed this often. Default 250 ms. */
  flushIntervalMs: number;
  /** Drops are logged at most once per this interval (with the count since the last report). Default 10 s. */
  dropReportIntervalMs: number;
}

export const DEFAULT_RECORDER_TUNING: RecorderTuning = {
  capacity: 20_000,
  batchSize: 1_000,
  flushIntervalMs: 250,
  dropReportIntervalMs: 10_000,
};

/**
 * A backlog drains in batches of up to this many records, each one transaction: the store writes it in slices with
 * the event loop free in between, so a large batch never holds requests up for long.
 */
const MAX_WRITE_BATCH = 5_000;

export interface MonitoringRecorderOptions {
  /** Stores a batch; resolves with how many records it kept (invalid ones are left out) once they are durable. */
  write: (records: NewMonitoringRecord[]) => Promise<number>;
  logger: Logger;
  tuning?: Partial<RecorderTuning>;
  /** Called for every record handed to `record()` (the Prometheus counters). */
  onRecord?: (record: NewMonitoringRecord) => void;
  onDrop?: (reason: DropReason, count: number) => void;
}

/**
 * The gateway's `MonitoringSink`. `record()` only puts the record in a bounded ring (O(1), never throws, never
 * waits); a background loop writes the ring to the store in batches. Under a flood, or while the store is
 * slow or still opening, the oldest waiting records are dropped and counted instead of growing memory.
 */
export class MonitoringRecorder implements MonitoringSink {
  private readonly tuning: RecorderTuning;
  private readonly ring: RecordRing<NewMonitoringRecord>;
  private readonly timer: NodeJS.Timeout;
  private flushScheduled = false;
  private draining: Promise<void> | undefined;
  private closed = false;
  private readonly unreported = new Map<DropReason, number>();
  private lastReportAt = 0;
  private lastWriteError: string | undefined;
  private internalErrorLogged = false;

  constructor(private readonly options: MonitoringRecorderOptions) {
    this.tuning = { ...DEFAULT_RECORDER_TUNING, ...options.tuning };
    this.ring = new RecordRing(this.tuning.capacity);
    this.timer = setInterval(() => this.tick(), this.tuning.flushIntervalMs);
    this.timer.unref();
  }

  record(record: NewMonitoringRecord): void {
    try {
      if (this.closed) {
        this.countDrop('closed', 1);
        return;
      }
      if (this.ring.push(record) !== undefined) this.countDrop('buffer_full', 1);
      if (this.ring.size >= this.tuning.batchSize) this.scheduleFlush();
      this.options.onRecord?.(record);
    } catch (error) {
      // A bug in the metrics must not reach the gateway's request path; say so once, loudly.
      if (!this.internalErrorLogged) {
        this.internalErrorLogged = true;
        this.options.logger.error({ err: error }, 'API monitoring failed to take a record');
      }
    }
  }

  /** Records waiting in memory. */
  get buffered(): number {
    return this.ring.size;
  }

  /** Resolves once every record handed over so far is written (or counted as dropped). */
  async flush(): Promise<void> {
    while (this.draining || this.ring.size > 0) await this.startDrain();
  }

  /** Stops taking records (later ones are counted as dropped) and writes what is waiting. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.flush();
    this.reportDrops(true);
  }

  private scheduleFlush(): void {
    if (this.flushScheduled || this.draining) return;
    this.flushScheduled = true;
    // Not in the caller's stack: encoding a batch is work the gateway's request path must not pay for.
    setImmediate(() => {
      this.flushScheduled = false;
      void this.startDrain();
    });
  }

  private tick(): void {
    if (this.ring.size > 0) this.scheduleFlush();
    this.reportDrops(false);
  }

  /** One drain loop at a time; it ends when the ring is empty. */
  private startDrain(): Promise<void> {
    if (!this.draining) {
      const run = this.drain();
      this.draining = run;
      void run.then(() => {
        if (this.draining === run) this.draining = undefined;
      });
    }
    return this.draining;
  }

  /**
   * Writes what is waiting, and goes on while a backlog of a batch or more is left; fewer records wait for the
   * next batch or tick (each write ends with an fsync). Never rejects: a failed write is counted as dropped.
   */
  private async drain(): Promise<void> {
    do {
      if (this.ring.size > 0) await this.write(this.ring.take(MAX_WRITE_BATCH));
    } while (this.ring.size >= this.tuning.batchSize);
  }

  private async write(batch: NewMonitoringRecord[]): Promise<void> {
    try {
      const kept = await this.options.write(batch);
      if (kept < batch.length) this.countDrop('invalid', batch.length - kept);
    } catch (error) {
      this.lastWriteError = (error as Error).message;
      this.countDrop('write_failed', batch.length);
    }
  }

  private countDrop(reason: DropReason, count: number): void {
    this.unreported.set(reason, (this.unreported.get(reason) ?? 0) + count);
    this.options.onDrop?.(reason, count);
  }

  private reportDrops(force: boolean): void {
    if (this.unreported.size === 0) return;
    const now = performance.now();
    if (!force && now - this.lastReportAt < this.tuning.dropReportIntervalMs) return;
    this.lastReportAt = now;
    const dropped = Object.fromEntries(this.unreported);
    this.unreported.clear();
    this.options.logger.warn(
      { dropped, ...(this.lastWriteError ? { lastWriteError: this.lastWriteError } : {}) },
      'API monitoring dropped records',
    );
    this.lastWriteError = undefined;
  }
}
