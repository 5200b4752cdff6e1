import type { Logger } from '../logging/logger.js';
import type { Monitoring } from './monitoring.js';
import type { JobLease } from '../storage/job-lease.js';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

export interface MonitoringRetentionOptions {
  monitoring: Pick<Monitoring, 'applyRetention'>;
  logger: Logger;
  /** The tenant's clock (tests inject one). */
  now: () => Date;
  /** `Monitoring:RetentionDays`. */
  retentionDays: number;
  /** Default hourly. */
  intervalMs?: number;
  /** Runs only while this instance holds the background jobs; at once when it takes them over. */
  lease?: JobLease;
}

export async function runMonitoringRetention(
  options: MonitoringRetentionOptions,
  signal?: AbortSignal,
): Promise<number> {
  const { removed } = await options.monitoring.applyRetention({
    now: options.now().getTime(),
    maxAgeMs: options.retentionDays * DAY_MS,
    signal,
  });
  if (removed > 0) options.logger.info({ removed }, 'API monitoring retention removed records');
  return removed;
}

/**
 * Retention at start, then every `intervalMs`. The returned stop function stops a run in progress before its next
 * batch and waits for it.
 * Records older than the retention period are not shown even before the first run has finished (readers
 * wait for it).
 */
export function scheduleMonitoringRetention(options: MonitoringRetentionOptions): () => Promise<void> {
  const stopping = new AbortController();
  const attempt = (): Promise<unknown> =>
    stopping.signal.aborted || (options.lease && !options.lease.held)
      ? Promise.resolve()
      : runMonitoringRetention(options, stopping.signal).catch((error: unknown) =>
          options.logger.error({ err: error }, 'API monitoring retention failed'),
        );
  // The first run starts now (synchronously), so readers already wait for it.
  let running = attempt();
  const next = () => {
    running = running.then(attempt);
  };
  const stopListening = options.lease?.onAcquired(next);
  const timer = setInterval(next, options.intervalMs ?? HOUR_MS);
  timer.unref();
  return async () => {
    stopListening?.();
    clearInterval(timer);
    stopping.abort();
    await running;
  };
}
