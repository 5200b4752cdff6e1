import type { NewMonitoringRecord } from './monitoring-record.js';

/** How many requests may be watched at once; more are refused rather than growing without bound. */
const MAX_WATCHED = 1_000;

interface Watched {
  record?: NewMonitoringRecord;
  waiter?: (record: NewMonitoringRecord) => void;
}

export interface TraceWatch {
  /** The request's monitoring record, or undefined when none arrived within `timeoutMs`. Ends the watch. */
  record: (timeoutMs: number) => Promise<NewMonitoringRecord | undefined>;
  /** Ends the watch without waiting. */
  cancel: () => void;
}

/**
 * Lets a caller that sends one request through a gateway listener (the editor's "Try it") receive the API
 * Monitoring record of exactly that request, matched by the W3C trace id of its `traceparent`.
 */
export class TraceWatchers {
  readonly #watched = new Map<string, Watched>();

  /** Starts watching before the request is sent, so a record that arrives first is kept. */
  watch(traceId: string): TraceWatch | undefined {
    if (this.#watched.size >= MAX_WATCHED || this.#watched.has(traceId)) return undefined;
    const watched: Watched = {};
    this.#watched.set(traceId, watched);
    const end = () => {
      if (this.#watched.get(traceId) === watched) this.#watched.delete(traceId);
    };
    return {
      record: (timeoutMs) =>
        new Promise((resolve) => {
          if (watched.record) {
            end();
            resolve(watched.record);
            return;
          }
          const timer = setTimeout(() => {
            end();
            resolve(undefined);
          }, timeoutMs);
          watched.waiter = (record) => {
            clearTimeout(timer);
            end();
            resolve(record);
          };
        }),
      cancel: end,
    };
  }

  /** Called for every gateway record; O(1), and free when nothing is watched. */
  notify(traceparent: string | undefined, record: NewMonitoringRecord): void {
    if (this.#watched.size === 0 || traceparent === undefined) return;
    const watched = this.#watched.get(traceIdOf(traceparent));
    if (!watched || watched.record) return;
    watched.record = record;
    watched.waiter?.(record);
  }
}

/** The trace-id field of a `traceparent` (`00-<trace-id>-<parent-id>-<flags>`). */
export function traceIdOf(traceparent: string): string {
  return traceparent.slice(3, 35).toLowerCase();
}
