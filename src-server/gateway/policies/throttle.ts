export type ThrottlePeriod = 'minute' | 'hour' | 'day';

export const PERIOD_MS: Record<ThrottlePeriod, number> = {
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
};

export type ThrottleVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

interface Counter {
  windowStart: number;
  current: number;
  previous: number;
}

/**
 * Sliding-window request counters in memory: the estimate is this window's count plus the previous window's,
 * weighted by how much of it still overlaps the last `period`. Refused requests do not count. At most
 * `maxKeys` identities are tracked; beyond that the oldest counters are dropped (they restart at zero).
 */
export class ThrottleCounters {
  readonly #counters = new Map<string, Counter>();

  constructor(private readonly maxKeys = 100_000) {}

  get size(): number {
    return this.#counters.size;
  }

  take(key: string, limit: number, period: ThrottlePeriod, nowMs: number): ThrottleVerdict {
    const windowMs = PERIOD_MS[period];
    const windowStart = nowMs - (nowMs % windowMs);
    const counter = this.#counterFor(`${period}\u0000${key}`, windowStart, windowMs);
    const elapsed = nowMs - windowStart;
    const estimate = counter.previous * (1 - elapsed / windowMs) + counter.current;
    if (estimate + 1 <= limit) {
      counter.current++;
      return { allowed: true };
    }
    return { allowed: false, retryAfterSeconds: retryAfterSeconds(counter, limit, windowMs, elapsed) };
  }

  #counterFor(key: string, windowStart: number, windowMs: number): Counter {
    let counter = this.#counters.get(key);
    if (!counter) {
      if (this.#counters.size >= this.maxKeys) this.#counters.delete(this.#counters.keys().next().value!);
      counter = { windowStart, current: 0, previous: 0 };
      this.#counters.set(key, counter);
    } else if (counter.windowStart !== windowStart) {
      counter.previous = counter.windowStart === windowStart - windowMs ? counter.current : 0;
      counter.current = 0;
      counter.windowStart = windowStart;
    }
    return counter;
  }
}

/**
 * Seconds until one more request fits under the limit, assuming no other request meanwhile (also for counts
 * kept elsewhere: `elapsed` is the time since the current window started).
 */
export function retryAfterSeconds(
  counter: { current: number; previous: number },
  limit: number,
  windowMs: number,
  elapsed: number,
): number {
  let waitMs: number;
  if (counter.current + 1 <= limit && counter.previous > 0) {
    // Still this window: wait until enough of the previous window has slid out.
    waitMs = windowMs * (1 - (limit - 1 - counter.current) / counter.previous) - elapsed;
  } else {
    // Next window: this window's count becomes the previous one and slides out in turn.
    const next = counter.current > 0 ? windowMs * Math.max(0, 1 - (limit - 1) / counter.current) : 0;
    waitMs = windowMs - elapsed + next;
  }
  return Math.max(1, Math.ceil(waitMs / 1000));
}
