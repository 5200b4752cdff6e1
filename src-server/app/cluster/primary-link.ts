import type { Logger } from 'pino';
import type { MonitoringSink, NewMonitoringRecord } from '../../core/monitoring/monitoring-record.js';
import type { ThrottlePeriod } from '../../gateway/policies/throttle.js';
import type { SharedThrottleWindow } from '../../gateway/throttle/guarded-throttle-store.js';
import type { ThrottleKey } from '../../gateway/throttle/throttle-store.js';
import type { FromWorker, ToWorker, WorkerAnswers, WorkerRequest } from './messages.js';
import { ErrorCode } from '../../core/contracts/error-codes.js';
import { GatehouseError } from '../../core/errors/gatehouse-error.js';
import { encodeMonitoringBatch } from './monitoring-batch.js';

const MONITORING_BATCH = 256;
const MONITORING_DELAY_MS = 20;
/** Records held while the primary does not keep up; beyond this the oldest are dropped (and counted). */
const MONITORING_BACKLOG = 20_000;

class PrimaryUnreachable extends GatehouseError {
  override name = 'PrimaryUnreachable';
  constructor(message: string) {
    super(ErrorCode.GH_ERR_PRIMARY_UNREACHABLE, message);
  }
}

/**
 * A gateway worker's channel to its primary (the IPC channel `node:cluster` opened): messages out, requests with
 * answers, and monitoring records in batches (one message per 256 records or 20 ms, in columns: see
 * monitoring-batch.ts).
 */
export class PrimaryLink implements MonitoringSink {
  readonly #pending = new Map<number, (answer: unknown) => void>();
  #nextId = 1;
  #records: [record: NewMonitoringRecord, traceparent: string | undefined][] = [];
  #timer: NodeJS.Timeout | undefined;
  #dropped = 0;

  constructor(private readonly logger: Logger) {}

  get connected(): boolean {
    return process.connected;
  }

  send(message: FromWorker): Promise<void> {
    return new Promise((resolve) => {
      if (!process.connected) {
        resolve();
        return;
      }
      process.send!(message, undefined, undefined, (error: Error | null) => {
        if (error) this.logger.warn({ err: error, message: message.type }, 'message to the primary not sent');
        resolve();
      });
    });
  }

  /** Asks the primary; rejects when it does not answer within `timeoutMs`. */
  ask<K extends WorkerRequest['kind']>(
    request: Extract<WorkerRequest, { kind: K }>,
    timeoutMs: number,
  ): Promise<WorkerAnswers[K]> {
    if (!process.connected) return Promise.reject(new PrimaryUnreachable('the primary process is gone'));
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new PrimaryUnreachable(`the primary did not answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#pending.set(id, (answer) => {
        clearTimeout(timer);
        resolve(answer as WorkerAnswers[K]);
      });
      process.send!({ type: 'request', id, request } satisfies FromWorker);
    });
  }

  /** Called with each `reply` message. */
  answered(message: Extract<ToWorker, { type: 'reply' }>): void {
    const resolve = this.#pending.get(message.id);
    this.#pending.delete(message.id);
    resolve?.(message.answer);
  }

  record(record: NewMonitoringRecord, traceparent?: string): void {
    const records = this.#records;
    if (records.length >= MONITORING_BACKLOG) {
      records.shift();
      if (this.#dropped++ === 0)
        this.logger.warn('the primary does not keep up with monitoring records; the oldest are dropped');
    }
    records.push([record, traceparent]);
    // flushMonitoring never rejects: a failed send is logged by send().
    if (records.length >= MONITORING_BATCH) void this.flushMonitoring();
    else this.#timer ??= setTimeout(() => void this.flushMonitoring(), MONITORING_DELAY_MS);
  }

  /** Sends what is batched; resolves once it has been handed to the channel. */
  flushMonitoring(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#records.length === 0) return Promise.resolve();
    const records = this.#records;
    this.#records = [];
    return this.send({ type: 'monitoring', batch: encodeMonitoringBatch(records) });
  }
}

/** Throttling counted by the primary for every worker, when Redis is not configured. */
export class PrimaryThrottleWindow implements SharedThrottleWindow {
  readonly name = 'the primary process';

  constructor(
    private readonly link: PrimaryLink,
    private readonly timeoutMs: number,
  ) {}

  get connected(): boolean {
    return this.link.connected;
  }

  take(key: ThrottleKey, limit: number, period: ThrottlePeriod) {
    return this.link.ask({ kind: 'throttle', key, limit, period }, this.timeoutMs);
  }

  async close(): Promise<void> {}
}
