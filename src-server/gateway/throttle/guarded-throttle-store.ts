import type { Logger } from 'pino';
import { ErrorCode } from '../../core/contracts/error-codes.js';
import { GatehouseError } from '../../core/errors/gatehouse-error.js';
import type { ThrottlePeriod } from '../policies/throttle.js';
import {
  LocalThrottleStore,
  type ThrottleKey,
  type ThrottleStore,
  type ThrottleVerdict,
} from './throttle-store.js';

/** `RateLimiting:FailureMode`. */
export type ThrottleFailureMode = 'open' | 'closed';

/** Counters every process and instance shares (Redis now, PostgreSQL later). */
export interface SharedThrottleWindow {
  /** Where the counts are kept, for logs, without credentials (`Redis at 10.0.0.5:6379`). */
  readonly name: string;
  /** False while the connection is known to be down: requests are then decided at once, without waiting. */
  readonly connected: boolean;
  /** Answered at once when the process already holds the count (a lease), otherwise asked of the store. */
  take: (key: ThrottleKey, limit: number, period: ThrottlePeriod) => SharedVerdict | Promise<SharedVerdict>;
  close: () => Promise<void>;
}

export interface SharedVerdict {
  allowed: boolean;
  retryAfterSeconds: number;
}

export interface GuardedThrottleOptions {
  failureMode: ThrottleFailureMode;
  /** The longest a request waits for the shared store (`RateLimiting:TimeoutMs`). */
  timeoutMs: number;
  logger: Logger;
  /** While the store is down, one request tries it again this often (the others decide at once). */
  probeIntervalMs?: number;
}

class SharedWindowTimeout extends GatehouseError {
  override name = 'SharedWindowTimeout';
  constructor(timeoutMs: number) {
    super(ErrorCode.GH_ERR_RATE_LIMIT_UNAVAILABLE, `no answer within ${timeoutMs} ms`);
  }
}

interface Outage {
  since: number;
  decided: number;
}

/**
 * Counts in a shared store, with a bounded wait. When the store cannot answer (down, or slower than the
 * timeout) the failure mode decides: `open` counts in this process until it is back, `closed` refuses. An outage
 * is logged once when it starts and once when it ends, never per request; while it lasts, one request a second
 * tries the store again.
 */
export class GuardedThrottleStore implements ThrottleStore {
  readonly #local = new LocalThrottleStore();
  readonly #probeIntervalMs: number;
  #outage: Outage | undefined;
  #nextProbe = 0;

  constructor(
    private readonly shared: SharedThrottleWindow,
    private readonly options: GuardedThrottleOptions,
  ) {
    this.#probeIntervalMs = options.probeIntervalMs ?? 1_000;
  }

  take(
    key: ThrottleKey,
    limit: number,
    period: ThrottlePeriod,
    nowMs: number,
  ): ThrottleVerdict | Promise<ThrottleVerdict> {
    if (!this.shared.connected) {
      this.reportDown('not connected');
      return this.#fallback(key, limit, period, nowMs);
    }
    if (this.#outage) {
      if (nowMs < this.#nextProbe) return this.#fallback(key, limit, period, nowMs);
      this.#nextProbe = nowMs + this.#probeIntervalMs;
    }
    const answer = this.shared.take(key, limit, period);
    if (answer instanceof Promise) return this.#wait(answer, key, limit, period, nowMs);
    return verdictOf(answer);
  }

  /** The store's own connection events report an outage as it happens, before any request notices. */
  reportDown(reason: string): void {
    if (this.#outage) return;
    this.#outage = { since: Date.now(), decided: 0 };
    this.#nextProbe = 0;
    const { failureMode } = this.options;
    this.options.logger.warn(
      { rateLimitStore: this.shared.name, reason, failureMode },
      failureMode === 'open'
        ? `rate-limit store unavailable (${reason}): until it is back, throttled requests are counted in this process only (RateLimiting:FailureMode=open)`
        : `rate-limit store unavailable (${reason}): until it is back, throttled requests are refused with 503 (RateLimiting:FailureMode=closed)`,
    );
  }

  reportUp(): void {
    const outage = this.#outage;
    if (!outage) return;
    this.#outage = undefined;
    this.options.logger.info(
      {
        rateLimitStore: this.shared.name,
        outageMs: Date.now() - outage.since,
        decidedWithoutStore: outage.decided,
      },
      'rate-limit store reachable again: throttled requests are counted there again',
    );
  }

  health() {
    return { store: this.shared.name, available: this.#outage === undefined && this.shared.connected };
  }

  close(): Promise<void> {
    return this.shared.close();
  }

  async #wait(
    pending: Promise<SharedVerdict>,
    key: ThrottleKey,
    limit: number,
    period: ThrottlePeriod,
    nowMs: number,
  ): Promise<ThrottleVerdict> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new SharedWindowTimeout(this.options.timeoutMs)),
        this.options.timeoutMs,
      );
    });
    try {
      const answer = await Promise.race([pending, timeout]);
      this.reportUp();
      return verdictOf(answer);
    } catch (error) {
      this.reportDown((error as Error).message || String(error));
      this.#nextProbe = Date.now() + this.#probeIntervalMs;
      return this.#fallback(key, limit, period, nowMs);
    } finally {
      clearTimeout(timer);
    }
  }

  #fallback(key: ThrottleKey, limit: number, period: ThrottlePeriod, nowMs: number): ThrottleVerdict {
    if (this.#outage) this.#outage.decided++;
    if (this.options.failureMode === 'closed')
      return { allowed: false, retryAfterSeconds: 1, fallback: 'refused' };
    const verdict = this.#local.take(key, limit, period, nowMs);
    return { ...verdict, fallback: 'counted-locally' };
  }
}

const ALLOWED: ThrottleVerdict = { allowed: true };

function verdictOf(answer: SharedVerdict): ThrottleVerdict {
  return answer.allowed ? ALLOWED : { allowed: false, retryAfterSeconds: answer.retryAfterSeconds };
}
