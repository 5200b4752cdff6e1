import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { NewMonitoringRecord } from '../monitoring-record.js';
import { DROP_REASONS, type DropReason } from '../monitoring-recorder.js';
import { BoundedLabel, methodLabel, NO_API, outcomeLabel, statusClassLabel } from './label-values.js';
import { processMetricsRegistry } from './process-metrics.js';

/** Histogram buckets in seconds (Prometheus convention), from 5 ms to 2 minutes. */
const DURATION_BUCKETS_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
const MAX_AGENT_GROUPS = 200;
const MAX_APIS = 2_000;

export interface MetricsSources {
  /** Store size, when the store is open. */
  storeStats(): { records: number; bytes: number } | undefined;
  bufferedRecords(): number;
}

/**
 * The tenant's Prometheus metrics in a private registry (never prom-client's global one, so two servers in
 * one process keep separate counts). Labels carry ids only (agent group, API), never paths, URLs or keys,
 * and each label's distinct values are bounded.
 */
export class MonitoringMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'agent_group' | 'api' | 'method' | 'status_class' | 'outcome'>;
  private readonly duration: Histogram<'agent_group' | 'api'>;
  private readonly dropped: Counter<'reason'>;
  private readonly agentGroups = new BoundedLabel(MAX_AGENT_GROUPS);
  private readonly apis = new BoundedLabel(MAX_APIS);

  constructor(sources: MetricsSources) {
    const registers = [this.registry];
    this.requests = new Counter({
      name: 'gatehouse_gateway_requests_total',
      help: 'Requests that reached a gateway listener, passthrough or not.',
      labelNames: ['agent_group', 'api', 'method', 'status_class', 'outcome'],
      registers,
    });
    this.duration = new Histogram({
      name: 'gatehouse_gateway_request_duration_seconds',
      help: 'Time from a request reaching a gateway listener to the end of its response.',
      labelNames: ['agent_group', 'api'],
      buckets: DURATION_BUCKETS_SECONDS,
      registers,
    });
    this.dropped = new Counter({
      name: 'gatehouse_monitoring_dropped_records_total',
      help: 'API Monitoring records that never reached the store (buffer full, write failed, invalid, closed).',
      labelNames: ['reason'],
      registers,
    });
    // Every reason is exported from the start, so a scraper sees 0 rather than a missing series.
    for (const reason of DROP_REASONS) this.dropped.inc({ reason }, 0);
    new Gauge({
      name: 'gatehouse_monitoring_store_records',
      help: 'API Monitoring records held by the store.',
      registers,
      collect() {
        const stats = sources.storeStats();
        if (stats) this.set(stats.records);
      },
    });
    new Gauge({
      name: 'gatehouse_monitoring_store_bytes',
      help: 'Bytes of the API Monitoring log on disk.',
      registers,
      collect() {
        const stats = sources.storeStats();
        if (stats) this.set(stats.bytes);
      },
    });
    new Gauge({
      name: 'gatehouse_monitoring_buffered_records',
      help: 'API Monitoring records waiting in memory to be written.',
      registers,
      collect() {
        this.set(sources.bufferedRecords());
      },
    });
  }

  observe(record: NewMonitoringRecord): void {
    // String(): a malformed record from the gateway must not turn into an `undefined` label.
    const agentGroup = this.agentGroups.value(String(record.agentGroupId));
    const api = record.apiId === undefined ? NO_API : this.apis.value(String(record.apiId));
    this.requests.inc({
      agent_group: agentGroup,
      api,
      method: methodLabel(record.method),
      status_class: statusClassLabel(record.status),
      outcome: outcomeLabel(record.outcome),
    });
    if (Number.isFinite(record.durationMs) && record.durationMs >= 0) {
      this.duration.observe({ agent_group: agentGroup, api }, record.durationMs / 1000);
    }
  }

  countDropped(reason: DropReason, count: number): void {
    this.dropped.inc({ reason }, count);
  }

  /** The text exposition: this tenant's metrics, then the process's (CPU, memory, event loop, GC). */
  async exposition(): Promise<string> {
    return (await this.registry.metrics()) + (await processMetricsRegistry().metrics());
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
