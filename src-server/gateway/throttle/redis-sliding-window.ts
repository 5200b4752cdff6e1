import { Redis } from 'ioredis';
import { PERIOD_MS, retryAfterSeconds, type ThrottlePeriod } from '../policies/throttle.js';
import type { SharedThrottleWindow, SharedVerdict } from './guarded-throttle-store.js';
import { LEASE_LIFETIME_MS, LeaseBook } from './lease-book.js';
import type { ThrottleKey } from './throttle-store.js';

/**
 * The same sliding window as the in-process counters (this window's count plus the previous one's, weighted by
 * its remaining overlap), kept in one hash per counter and decided in one atomic script. The clock is Redis's
 * own (`TIME`), so instances whose clocks differ still agree on the window. A refused request does not count.
 * It grants up to ARGV[3] tokens at once (a lease; see lease-book.ts), as many as fit under the limit.
 * Returns the tokens granted (0 when refused), this window's count, the previous window's count and the ms
 * elapsed in this window.
 */
const SLIDING_WINDOW_SCRIPT = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local start = now - (now % window)
local stored = redis.call('HMGET', KEYS[1], 'w', 'c', 'p')
local current = tonumber(stored[2]) or 0
local previous = tonumber(stored[3]) or 0
local stored_start = tonumber(stored[1])
if stored_start ~= start then
  if stored_start == start - window then previous = current else previous = 0 end
  current = 0
end
local elapsed = now - start
local room = math.floor(limit - previous * (1 - elapsed / window) - current)
local granted = 0
if room >= 1 then
  granted = math.min(room, tonumber(ARGV[3]))
  current = current + granted
end
redis.call('HSET', KEYS[1], 'w', start, 'c', current, 'p', previous)
redis.call('PEXPIRE', KEYS[1], window * 2)
return { granted, current, previous, elapsed }
`;

type WindowReply = [granted: number, current: number, previous: number, elapsed: number];

interface ThrottleCommands {
  gatehouseThrottle: (key: string, limit: number, windowMs: number, wanted: number) => Promise<WindowReply>;
}

const ALLOWED = { allowed: true, retryAfterSeconds: 0 } as const;

export interface RedisWindowOptions {
  /** `ConnectionStrings:Redis`. */
  url: string;
  /** Keys are `<namespace>:throttle:<period>:<policy id>:<identity>`; the tenant id keeps tenants apart. */
  namespace: string;
  /** A command not answered within this is failed (the guard's own timeout applies too). */
  commandTimeoutMs: number;
  /** Shown by `CLIENT LIST`. */
  clientName: string;
  /** Connection lost, or refused while connecting: told at once, so the outage is logged before any request. */
  onDown: (reason: string) => void;
  onUp: () => void;
}

/** API-policy throttling counted in Redis, shared by every process and instance that uses the same server. */
export class RedisSlidingWindow implements SharedThrottleWindow {
  readonly name: string;
  readonly #redis: Redis & ThrottleCommands;
  readonly #namespace: string;
  readonly #leases = new LeaseBook();
  /** One ask per counter at a time: requests that find the lease empty meanwhile wait for its answer. */
  readonly #asking = new Map<string, Promise<SharedVerdict>>();

  constructor(options: RedisWindowOptions) {
    this.name = `Redis at ${redisAddress(options.url)}`;
    this.#namespace = options.namespace;
    const redis = new Redis(options.url, {
      // Nothing waits for a connection: while it is down, commands fail at once and the failure mode decides.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.commandTimeoutMs,
      connectTimeout: 2_000,
      retryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
      enableAutoPipelining: true,
      connectionName: options.clientName.replace(/[^\x21-\x7e]/g, '_'),
    });
    redis.defineCommand('gatehouseThrottle', { numberOfKeys: 1, lua: SLIDING_WINDOW_SCRIPT });
    this.#redis = redis as Redis & ThrottleCommands;
    // ioredis reports each failed reconnect; the guard logs only the first of an outage.
    redis.on('error', (error: Error) => options.onDown(describeRedisError(error)));
    redis.on('close', () => options.onDown('connection closed'));
    redis.on('ready', () => options.onUp());
  }

  /** Resolves once the first connection attempt has succeeded or failed (at most `waitMs`), so a start is not logged as an outage. */
  firstConnection(waitMs: number): Promise<void> {
    if (this.#redis.status === 'ready') return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#redis.off('ready', done);
        this.#redis.off('error', done);
        resolve();
      };
      const timer = setTimeout(done, waitMs);
      this.#redis.once('ready', done);
      this.#redis.once('error', done);
    });
  }

  get connected(): boolean {
    return this.#redis.status === 'ready';
  }

  /** From this process's lease when it holds one (no round trip), otherwise asked of Redis with a new lease. */
  take(key: ThrottleKey, limit: number, period: ThrottlePeriod): SharedVerdict | Promise<SharedVerdict> {
    const counter = `${this.#namespace}:throttle:${period}:${key.policyId}:${key.identity}`;
    const nowMs = Date.now();
    if (this.#leases.take(counter, nowMs)) {
      if (!this.#asking.has(counter)) this.#renewIfDue(counter, limit, period, nowMs);
      return ALLOWED;
    }
    const asking = this.#asking.get(counter);
    // Waiting for the ask in flight keeps this process's lease within its share; a refusal holds for all.
    if (asking) return asking.then((verdict) => (verdict.allowed ? this.take(key, limit, period) : verdict));
    const ask = this.#ask(counter, limit, period, nowMs).finally(() => this.#asking.delete(counter));
    this.#asking.set(counter, ask);
    return ask;
  }

  async #ask(counter: string, limit: number, period: ThrottlePeriod, nowMs: number): Promise<SharedVerdict> {
    const windowMs = PERIOD_MS[period];
    const [granted, current, previous, elapsed] = await this.#redis.gatehouseThrottle(
      counter,
      limit,
      windowMs,
      this.#leases.sizeFor(counter, limit, nowMs),
    );
    if (granted === 0) return refusal(current, previous, limit, windowMs, elapsed);
    this.#leases.hold(counter, granted, nowMs, leaseEnd(nowMs, windowMs, elapsed));
    return ALLOWED;
  }

  /**
   * Asks for the next lease while this one still serves. Requests that find the lease empty before the answer
   * wait for it, as for any ask in flight; a renewal that fails is not retried here: the next request that finds
   * the lease empty asks itself, through the guard's timeout and failure mode.
   */
  #renewIfDue(counter: string, limit: number, period: ThrottlePeriod, nowMs: number): void {
    const wanted = this.#leases.renewalSize(counter, limit, nowMs);
    if (wanted === 0) return;
    const windowMs = PERIOD_MS[period];
    const renewal = this.#redis
      .gatehouseThrottle(counter, limit, windowMs, wanted)
      .then(([granted, current, previous, elapsed]): SharedVerdict => {
        if (granted === 0) return refusal(current, previous, limit, windowMs, elapsed);
        const answeredMs = Date.now();
        this.#leases.renew(counter, granted, answeredMs, leaseEnd(answeredMs, windowMs, elapsed));
        return ALLOWED;
      })
      .finally(() => this.#asking.delete(counter));
    // Nobody may be waiting for it; a request that does gets the failure through the guard, which logs it.
    renewal.catch(() => undefined);
    this.#asking.set(counter, renewal);
  }

  close(): Promise<void> {
    this.#redis.removeAllListeners('close');
    this.#redis.disconnect();
    return Promise.resolve();
  }
}

function refusal(current: number, previous: number, limit: number, windowMs: number, elapsed: number) {
  return {
    allowed: false,
    retryAfterSeconds: retryAfterSeconds({ current, previous }, limit, windowMs, elapsed),
  };
}

/** A lease ends with the window it was counted in. */
function leaseEnd(nowMs: number, windowMs: number, elapsed: number): number {
  return nowMs + Math.min(LEASE_LIFETIME_MS, windowMs - elapsed);
}

/** `host:port` of a connection string (checked when the settings were read), without user name or password. */
export function redisAddress(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || '6379'}`;
}

function describeRedisError(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code;
  return code ? code : error.message.split('\n', 1)[0]!.slice(0, 200);
}
