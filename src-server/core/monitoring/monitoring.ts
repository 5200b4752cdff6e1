import type { Logger } from '../logging/logger.js';
import { MonitoringMetrics } from './metrics/monitoring-metrics.js';
import type { MonitoringSink, NewMonitoringRecord } from './monitoring-record.js';
import { MonitoringRecorder, type RecorderTuning } from './monitoring-recorder.js';
import type { MonitoringRetentionPolicy, MonitoringStore } from './monitoring-store.js';
import { ErrorCode } from '../contracts/error-codes.js';
import { GatehouseError } from '../errors/gatehouse-error.js';

export interface OpenMonitoringOptions {
  /** The tenant's monitoring store (in the Gatehouse database). */
  store: MonitoringStore;
  logger: Logger;
  recorder?: Partial<RecorderTuning>;
}

export class MonitoringUnavailableError extends GatehouseError {
  override name = 'MonitoringUnavailableError';
  constructor(message: string, options?: ErrorOptions) {
    super(ErrorCode.GH_ERR_MONITORING_UNAVAILABLE, message, options);
  }
}

/**
 * API Monitoring of one tenant: the sink the gateway reports every request to, the durable store behind it,
 * and the Prometheus metrics. Recording never waits for the store: the recorder batches records in memory.
 */
export class Monitoring implements MonitoringSink {
  readonly metrics: MonitoringMetrics;
  private readonly recorder: MonitoringRecorder;
  private closing: Promise<void> | undefined;
  /** Readers wait for the first retention run (at start): expired records never show. */
  private readyForReaders: Promise<unknown> | undefined;

  private constructor(private readonly options: OpenMonitoringOptions) {
    const { store, logger } = options;
    this.metrics = new MonitoringMetrics({
      storeStats: async () => {
        try {
          return await store.stats();
        } catch (error) {
          // A scrape while the database is away shows the other metrics; the gauge keeps its last value.
          logger.debug({ err: error }, 'the monitoring store size could not be read for the metrics');
          return undefined;
        }
      },
      bufferedRecords: () => this.recorder.buffered,
    });
    this.recorder = new MonitoringRecorder({
      write: (records) => store.write(records),
      logger,
      tuning: options.recorder,
      onRecord: (record) => this.metrics.observe(record),
      onDrop: (reason, count) => this.metrics.countDropped(reason, count),
    });
  }

  static open(options: OpenMonitoringOptions): Monitoring {
    return new Monitoring(options);
  }

  record(record: NewMonitoringRecord): void {
    this.recorder.record(record);
  }

  /** The store, for readers (once the first retention run has ended). */
  async store(): Promise<MonitoringStore> {
    if (this.closing) throw new MonitoringUnavailableError('API monitoring is closed');
    await this.readyForReaders;
    return this.options.store;
  }

  /** Removes records whose request time is more than `maxAgeMs` before `now`. */
  applyRetention(policy: MonitoringRetentionPolicy): Promise<{ removed: number }> {
    const run = this.options.store.applyRetention(policy);
    // The caller hears of a failure; readers only wait for the attempt.
    this.readyForReaders ??= run.then(noop, noop);
    return run;
  }

  /** Resolves once every record recorded so far is durable and visible to queries. */
  async flush(): Promise<void> {
    await this.recorder.flush();
  }

  /** Writes what is waiting, then closes the store. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.recorder.close();
      await this.options.store.close();
    })();
    return this.closing;
  }
}

function noop(): undefined {
  return undefined;
}
