import type { Logger } from 'pino';
import type { AuditResource, AuditStore } from './audit-entry.js';
import type { JobLease } from '../storage/job-lease.js';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

export interface RetentionOptions {
  store: AuditStore;
  logger: Logger;
  now: () => Date;
  retentionDays: number;
  agentWindow: number;
  isResourceLive: (resource: AuditResource) => boolean;
  /** Runs only while this instance holds the background jobs; at once when it takes them over. */
  lease?: JobLease;
}

export async function runRetention(options: RetentionOptions, signal?: AbortSignal): Promise<number> {
  const { removed } = await options.store.applyRetention({
    now: options.now().getTime(),
    maxAgeMs: options.retentionDays * DAY_MS,
    agentWindow: options.agentWindow,
    isResourceLive: options.isResourceLive,
    signal,
  });
  if (removed > 0) options.logger.info({ removed }, 'audit retention removed entries');
  return removed;
}

export interface RetentionSchedule {
  /** The start-up run at once if it still waits for its delay; resolves when the runs begun so far are over. */
  runStartUpNow: () => Promise<void>;
  /** Cancels what has not begun, stops a run in progress before its next batch and waits for it. */
  stop: () => Promise<void>;
}

/**
 * Retention at start and then hourly (seed part 8). The start-up run waits `startUpDelayMs` (0: at once), so that
 * the first requests are answered before it reads the trail.
 */
export function scheduleRetention(
  options: RetentionOptions & { startUpDelayMs?: number },
): RetentionSchedule {
  let running: Promise<unknown> = Promise.resolve();
  const stopping = new AbortController();
  const run = () => {
    if (stopping.signal.aborted || (options.lease && !options.lease.held)) return;
    running = runRetention(options, stopping.signal).catch((error: unknown) =>
      options.logger.error({ err: error }, 'audit retention failed'),
    );
  };
  let startUp: NodeJS.Timeout | undefined;
  const runStartUp = () => {
    startUp = undefined;
    run();
  };
  const delayMs = options.startUpDelayMs ?? 0;
  if (delayMs > 0) {
    startUp = setTimeout(runStartUp, delayMs);
    startUp.unref();
  } else runStartUp();
  const stopListening = options.lease?.onAcquired(run);
  const timer = setInterval(run, HOUR_MS);
  timer.unref();
  return {
    async runStartUpNow() {
      if (startUp) {
        clearTimeout(startUp);
        runStartUp();
      }
      await running;
    },
    async stop() {
      stopListening?.();
      clearTimeout(startUp);
      startUp = undefined;
      clearInterval(timer);
      stopping.abort();
      await running;
    },
  };
}
