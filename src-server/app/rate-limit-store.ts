import type { Logger } from 'pino';
import type { SettingsSnapshot } from '../core/settings/settings.js';
import { SettingsError } from '../core/settings/settings.js';
import {
  GuardedThrottleStore,
  type ThrottleFailureMode,
} from '../gateway/throttle/guarded-throttle-store.js';
import { LocalThrottleStore, type ThrottleStore } from '../gateway/throttle/throttle-store.js';
import { PostgresSlidingWindow } from '../gateway/throttle/postgres-sliding-window.js';
import type { Database } from '../core/storage/database.js';

/**
 * Where this process's gateway counts API-policy throttling: in Redis when `ConnectionStrings:Redis` is set, else
 * in PostgreSQL when the tenant's database is there (both guarded by `RateLimiting:FailureMode` and
 * `RateLimiting:TimeoutMs`), else in process.
 */
export async function openRateLimitStore(input: {
  settings: SettingsSnapshot;
  tenantId: string;
  instanceId: string;
  logger: Logger;
  /** The tenant's database: on PostgreSQL, without Redis, the counts are kept there. */
  database?: Database;
}): Promise<ThrottleStore> {
  const url = input.settings.str('ConnectionStrings:Redis').trim();
  if (url === '') {
    if (input.database?.kind !== 'postgres') return new LocalThrottleStore();
    const window = new PostgresSlidingWindow(input.database, input.tenantId, input.logger);
    input.logger.info({ rateLimitStore: window.name }, 'API-policy throttling counts in PostgreSQL');
    return new GuardedThrottleStore(window, {
      failureMode: input.settings.str('RateLimiting:FailureMode') as ThrottleFailureMode,
      timeoutMs: input.settings.int('RateLimiting:TimeoutMs'),
      logger: input.logger,
    });
  }
  checkRedisUrl(url);
  // Loaded only for Redis: ioredis was ~100 ms of CPU on every cold start.
  const { RedisSlidingWindow } = await import('../gateway/throttle/redis-sliding-window.js');
  const timeoutMs = input.settings.int('RateLimiting:TimeoutMs');
  // The guard is created first: the connection's events report to it from the start.
  const events: { guard?: GuardedThrottleStore } = {};
  const window = new RedisSlidingWindow({
    url,
    namespace: `gatehouse:${input.tenantId}`,
    commandTimeoutMs: timeoutMs,
    clientName: `gatehouse:${input.instanceId}`,
    onDown: (reason) => events.guard?.reportDown(reason),
    onUp: () => events.guard?.reportUp(),
  });
  const guard = new GuardedThrottleStore(window, {
    failureMode: input.settings.str('RateLimiting:FailureMode') as ThrottleFailureMode,
    timeoutMs,
    logger: input.logger,
  });
  events.guard = guard;
  await window.firstConnection(2_000);
  if (window.connected)
    input.logger.info({ rateLimitStore: window.name }, 'API-policy throttling counts in Redis');
  else guard.reportDown('not reachable at start');
  return guard;
}

/** A malformed connection string stops the start with a message that does not repeat it (it may hold a password). */
function checkRedisUrl(url: string): void {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch (error) {
    throw new SettingsError('ConnectionStrings:Redis is not a URL (redis://[:password@]host[:port][/db]).', {
      cause: error,
    });
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:')
    throw new SettingsError('ConnectionStrings:Redis must start with redis:// or rediss://.');
}
