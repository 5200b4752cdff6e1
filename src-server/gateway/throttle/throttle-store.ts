import { ThrottleCounters, type ThrottlePeriod } from '../policies/throttle.js';

/** Who is counted: one counter per policy, client identity and period. */
export interface ThrottleKey {
  policyId: string;
  /** The key, the token's subject, or `public:<client address>` (see `AccessResult.throttleIdentity`). */
  identity: string;
}

/** How the failure mode decided while the shared store could not answer (for the monitoring record). */
export type ThrottleFallback = 'counted-locally' | 'refused';

export type ThrottleVerdict =
  | { allowed: true; fallback?: 'counted-locally' }
  | { allowed: false; retryAfterSeconds: number; fallback?: ThrottleFallback };

/**
 * Where API-policy throttling counts. In process (one process's requests), in Redis (every process and instance
 * using it), later in PostgreSQL. Synchronous where the count is local, so the common path stays allocation-free.
 */
export interface ThrottleStore {
  take: (
    key: ThrottleKey,
    limit: number,
    period: ThrottlePeriod,
    nowMs: number,
  ) => ThrottleVerdict | Promise<ThrottleVerdict>;
  /** Reported by `/readyz` (informational: the failure mode covers an outage). */
  health: () => { store: string; available: boolean };
  close: () => Promise<void>;
}

/** Counters of this process only: the default, and what `open` falls back to while a shared store is down. */
export class LocalThrottleStore implements ThrottleStore {
  readonly #counters: ThrottleCounters;

  constructor(maxKeys?: number) {
    this.#counters = new ThrottleCounters(maxKeys);
  }

  take(key: ThrottleKey, limit: number, period: ThrottlePeriod, nowMs: number): ThrottleVerdict {
    return this.#counters.take(localKeyOf(key), limit, period, nowMs);
  }

  health() {
    return { store: 'in-process', available: true };
  }

  async close(): Promise<void> {}
}

function localKeyOf(key: ThrottleKey): string {
  return `${key.policyId}\u0000${key.identity}`;
}
