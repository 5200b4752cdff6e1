import { collectDefaultMetrics, Registry } from 'prom-client';

let registry: Registry | undefined;

/**
 * prom-client's default process metrics, in one registry per process: they describe the process, not a
 * tenant, and each `collectDefaultMetrics` call starts its own event-loop and GC observers.
 */
export function processMetricsRegistry(): Registry {
  if (!registry) {
    registry = new Registry();
    collectDefaultMetrics({ register: registry });
  }
  return registry;
}
