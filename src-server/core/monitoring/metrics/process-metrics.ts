import type { Registry } from 'prom-client';
import { loadPromClient } from './load-prom-client.js';

let registry: Promise<Registry> | undefined;

/**
 * prom-client's default process metrics, in one registry per process: they describe the process, not a
 * tenant, and each `collectDefaultMetrics` call starts its own event-loop and GC observers. Created (and
 * prom-client imported) at the first scrape.
 */
export function processMetricsRegistry(): Promise<Registry> {
  registry ??= loadPromClient().then(({ collectDefaultMetrics, Registry }) => {
    const created = new Registry();
    collectDefaultMetrics({ register: created });
    return created;
  });
  return registry;
}
