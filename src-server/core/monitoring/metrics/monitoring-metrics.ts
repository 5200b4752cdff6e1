import type { Registry } from 'prom-client';
import type { NewMonitoringRecord } from '../monitoring-record.js';
import { DROP_REASONS, type DropReason } from '../monitoring-recorder.js';
import { BoundedLabel, methodLabel, NO_API, outcomeLabel, statusClassLabel } from './label-values.js';
import { loadPromClient } from './load-prom-client.js';
import { processMetricsRegistry } from './process-metrics.js';
import { RequestMetrics } from './request-metrics.js';

const MAX_AGENT_GROUPS = 200;
const MAX_APIS = 2_000;

export interface MetricsSources {
  /** Store size, when the store is open. */
  storeStats: () => Promise<{ records: number } | undefined>;
  bufferedRecords: () => number;
}

/** prom-client's text format (its `Registry.PROMETHEUS_CONTENT_TYPE`): known before prom-client is loaded. */
const PROMETHEUS_TEXT = 'text/plain; version=0.0.4; charset=utf-8';

/**
 * The tenant's Prometheus metrics: the per-request ones (`RequestMetrics`) and the rest in a private prom-client
 * registry (never prom-client's global one, so two servers in one process keep separate counts). Labels carry
 * ids only (agent group, API), never paths, URLs or keys, and each label's distinct values are bounded.
 *
 * prom-client (with the http, https and zlib modules its push gateway needs) is imported at the first scrape, not
 * at start (~10 ms of every start): until then the dropped records are counted here, and the counter starts from
 * these counts.
 */
export class MonitoringMetrics {
  readonly #sources: MetricsSources;
  #registry: Promise<Registry> | undefined = undefined;
  private readonly requests = new RequestMetrics();
  /** Every reason from the start, so a scraper sees 0 rather than a missing series. */
  readonly #dropped = new Map<DropReason, number>(DROP_REASONS.map((reason) => [reason, 0]));
  private readonly agentGroups = new BoundedLabel(MAX_AGENT_GROUPS);
  private readonly apis = new BoundedLabel(MAX_APIS);

  constructor(sources: MetricsSources) {
    this.#sources = sources;
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
    this.#dropped.set(reason, (this.#dropped.get(reason) ?? 0) + count);
  }

  /** The text exposition: this tenant's metrics, then the process's (CPU, memory, event loop, GC). */
  async exposition(): Promise<string> {
    const registry = await (this.#registry ??= this.#createRegistry());
    const tenant = await registry.metrics();
    return `${this.requests.exposition()}\n${tenant}${await (await processMetricsRegistry()).metrics()}`;
  }

  get contentType(): string {
    return PROMETHEUS_TEXT;
  }

  async #createRegistry(): Promise<Registry> {
    const { Counter, Gauge, Registry } = await loadPromClient();
    const registry = new Registry();
    const registers = [registry];
    const sources = this.#sources;
    const dropped = this.#dropped;
    new Counter({
      name: 'gatehouse_monitoring_dropped_records_total',
      help: 'API Monitoring records that never reached the store (buffer full, write failed, invalid, closed).',
      labelNames: ['reason'],
      registers,
      collect() {
        this.reset();
        for (const [reason, count] of dropped) this.inc({ reason }, count);
      },
    });
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
    return registry;
  }
}
