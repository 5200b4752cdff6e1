import { Counter, Gauge, Registry } from 'prom-client';
import type { NewMonitoringRecord } from '../monitoring-record.js';
import { DROP_REASONS, type DropReason } from '../monitoring-recorder.js';
import { BoundedLabel, methodLabel, NO_API, outcomeLabel, statusClassLabel } from './label-values.js';
import { processMetricsRegistry } from './process-metrics.js';
import { RequestMetrics } from './request-metrics.js';

const MAX_AGENT_GROUPS = 200;
const MAX_APIS = 2_000;

export interface MetricsSources {
  /** Store size, when the store is open. */
  storeStats: () => Promise<{ records: number } | undefined>;
  bufferedRecords: () => number;
}

/**
 * The tenant's Prometheus metrics: the per-request ones (`RequestMetrics`) and the rest in a private prom-client
 * registry (never prom-client's global one, so two servers in one process keep separate counts). Labels carry
 * ids only (agent group, API), never paths, URLs or keys, and each label's distinct values are bounded.
 */
export class MonitoringMetrics {
  readonly registry = new Registry();
  private readonly requests = new RequestMetrics();
  private readonly dropped: Counter<'reason'>;
  private readonly agentGroups = new BoundedLabel(MAX_AGENT_GROUPS);
  private readonly apis = new BoundedLabel(MAX_APIS);

  constructor(sources: MetricsSources) {
    const registers = [this.registry];
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
      async collect() {
        const stats = await sources.storeStats();
        if (stats) this.set(stats.records);
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
    const agentGroup = this.agentGroups.value(record.agentGroupId);
    const api = record.apiId === undefined ? NO_API : this.apis.value(record.apiId);
    const observed = Number.isFinite(record.durationMs) && record.durationMs >= 0;
    this.requests.observe(
      agentGroup,
      api,
      methodLabel(record.method),
      statusClassLabel(record.status),
      outcomeLabel(record.outcome),
      observed ? record.durationMs / 1000 : undefined,
    );
  }

  countDropped(reason: DropReason, count: number): void {
    this.dropped.inc({ reason }, count);
  }

  /** The text exposition: this tenant's metrics, then the process's (CPU, memory, event loop, GC). */
  async exposition(): Promise<string> {
    const tenant = await this.registry.metrics();
    return `${this.requests.exposition()}\n${tenant}${await processMetricsRegistry().metrics()}`;
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
