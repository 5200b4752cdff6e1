import type { Logger } from '../logging/logger.js';
import { MonitoringMetrics } from './metrics/monitoring-metrics.js';
import type { MonitoringSink, NewMonitoringRecord } from './monitoring-record.js';
import { MonitoringRecorder, type RecorderTuning } from './monitoring-recorder.js';
import type { MonitoringStore } from './monitoring-store.js';
import { openMonitoringStore, type FileMonitoringStore } from './store/index.js';
import { ErrorCode } from '../contracts/error-codes.js';
import { GatehouseError } from '../errors/gatehouse-error.js';

export interface OpenMonitoringOptions {
  /** The data dir's monitoring folder (the caller holds the data-dir lock). */
  dir: string;
  logger: Logger;
  recorder?: Partial<RecorderTuning>;
  /** Tests use small segments to exercise retention. */
  segmentMaxBytes?: number;
}

export class MonitoringUnavailableError extends GatehouseError {
  override name = 'MonitoringUnavailableError';
  constructor(message: string, options?: ErrorOptions) {
    super(ErrorCode.GH_ERR_MONITORING_UNAVAILABLE, message, options);
  }
}

/**
 * API Monitoring of one tenant: the sink the gateway reports every request to, the durable store behind it,
 * and the Prometheus metrics. The store opens in the background (rebuilding its index reads the whole log,
 * about a second per million records): the sink takes records at once and holds them until the store is
 * ready, and readers wait for it through `store()`.
 */
export class Monitoring implements MonitoringSink {
  readonly metrics: MonitoringMetrics;
  private readonly recorder: MonitoringRecorder;
  private readonly opening: Promise<FileMonitoringStore>;
  private opened: FileMonitoringStore | undefined;
  /** Readers wait for retention requested before the store was open: expired records never show. */
  private readyForReaders: Promise<unknown>;
  private closing: Promise<void> | undefined;

  private constructor(private readonly options: OpenMonitoringOptions) {
    this.opening = openMonitoringStore({
      dir: options.dir,
      segmentMaxBytes: options.segmentMaxBytes,
      onWarning: (message, details) => options.logger.warn({ details }, message),
    });
    this.opening.then(
      (store) => {
        this.opened = store;
      },
      (error: unknown) => {
        options.logger.error({ err: error }, 'The API monitoring store could not be opened');
      },
    );
    this.readyForReaders = this.opening;
    this.metrics = new MonitoringMetrics({
      storeStats: () => this.opened?.stats(),
      bufferedRecords: () => this.recorder.buffered,
    });
    this.recorder = new MonitoringRecorder({
      write: async (records) => (await this.opening).append(records),
      logger: options.logger,
      tuning: options.recorder,
      onRecord: (record) => this.metrics.observe(record),
      onDrop: (reason, count) => this.metrics.countDropped(reason, count),
    });
  }

  /** Starts opening the store and returns at once. */
  static open(options: OpenMonitoringOptions): Monitoring {
    return new Monitoring(options);
  }

  record(record: NewMonitoringRecord): void {
    this.recorder.record(record);
  }

  /** The store, once it is open (and any retention asked for before that has run). */
  async store(): Promise<MonitoringStore> {
    if (this.closing) throw new MonitoringUnavailableError('API monitoring is closed');
    try {
      await this.readyForReaders;
      return await this.opening;
    } catch (error) {
      throw new MonitoringUnavailableError('The API monitoring store is not available', { cause: error });
    }
  }

  /** Removes records whose request time is more than `maxAgeMs` before `now`. */
  applyRetention(policy: { now: number; maxAgeMs: number }): Promise<{ removed: number }> {
    const run = this.opening.then((store) => store.applyRetention(policy));
    // The caller hears of a failure; readers only wait for the attempt.
    if (!this.opened) this.readyForReaders = run.then(noop, noop);
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
      // A store that failed to open was reported when it failed; there is nothing to close then.
      const store = await this.opening.then((opened) => opened, noop);
      await store?.close();
    })();
    return this.closing;
  }

  /** Bytes of the store's in-memory index (0 while it opens). */
  indexMemoryBytes(): number {
    return this.opened?.indexMemoryBytes() ?? 0;
  }

  get dir(): string {
    return this.options.dir;
  }
}

function noop(): undefined {
  return undefined;
}
