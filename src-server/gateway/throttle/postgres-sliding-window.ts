import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../../core/storage/database.js';
import { PERIOD_MS, retryAfterSeconds, type ThrottlePeriod } from '../policies/throttle.js';
import type { SharedThrottleWindow } from './guarded-throttle-store.js';
import type { ThrottleKey } from './throttle-store.js';

/** Counters idle for two windows are dropped this often (by whichever instance; the delete is idempotent). */
const SWEEP_EVERY_MS = 10 * 60_000;

interface WindowRow {
  allowed: boolean;
  current_count: number;
  previous_count: number;
  elapsed: number;
}

/**
 * API-policy throttling counted in PostgreSQL, for instances that share a database but no Redis: the same
 * sliding window as the in-process counters and the Redis script (this window's count plus the previous one's,
 * weighted by its remaining overlap), decided in one atomic upsert on the counter's row (committed without waiting for the disk), on the database's clock
 * so instances whose clocks differ agree. A refused request does not count.
 */
export class PostgresSlidingWindow implements SharedThrottleWindow {
  readonly name: string;
  /**
   * Always true: the pool reconnects by itself, so the guard sends a request through once a second during an
   * outage, and the failed (or slow) statement is what tells it the database is away.
   */
  readonly connected = true;
  readonly #sweeper: NodeJS.Timeout;

  constructor(
    private readonly database: Database,
    private readonly namespace: string,
    private readonly logger: Logger,
  ) {
    this.name = `PostgreSQL at ${database.location}`;
    this.#sweeper = setInterval(() => void this.#sweep(), SWEEP_EVERY_MS);
    this.#sweeper.unref();
  }

  async take(key: ThrottleKey, limit: number, period: ThrottlePeriod) {
    const windowMs = PERIOD_MS[period];
    const counter = `${this.namespace}:${period}:${key.policyId}:${key.identity}`;
    // Counters need no durability (a crash of the database forgets a minute's counts at most): the commit does
    // not wait for the disk, which is what a request would otherwise wait for.
    const {
      rows: [row],
    } = await this.database.transaction(
      (trx) =>
        sql<WindowRow>`
        with clock as (select floor(extract(epoch from clock_timestamp()) * 1000)::bigint as now),
        fresh as (select now, now - now % ${windowMs}::bigint as start from clock)
        insert into throttle_windows as t
          (key, window_ms, window_start, current_count, previous_count, seen_at, allowed)
        select ${counter}, ${windowMs}::bigint, start, 1, 0, now, 1 <= ${limit}::int from fresh
        on conflict (key) do update set
          previous_count = case
            when t.window_start = excluded.window_start then t.previous_count
            when t.window_start = excluded.window_start - ${windowMs}::bigint then t.current_count
            else 0 end,
          current_count = case when t.window_start = excluded.window_start then t.current_count else 0 end
            + case when (case
                when t.window_start = excluded.window_start then t.previous_count
                when t.window_start = excluded.window_start - ${windowMs}::bigint then t.current_count
                else 0 end) * (1 - (excluded.seen_at - excluded.window_start)::float8 / ${windowMs}::float8)
              + (case when t.window_start = excluded.window_start then t.current_count else 0 end) + 1
              <= ${limit}::int then 1 else 0 end,
          allowed = (case
                when t.window_start = excluded.window_start then t.previous_count
                when t.window_start = excluded.window_start - ${windowMs}::bigint then t.current_count
                else 0 end) * (1 - (excluded.seen_at - excluded.window_start)::float8 / ${windowMs}::float8)
              + (case when t.window_start = excluded.window_start then t.current_count else 0 end) + 1
              <= ${limit}::int,
          window_start = excluded.window_start,
          seen_at = excluded.seen_at
        returning allowed, current_count, previous_count, (seen_at - window_start)::int as elapsed
      `.execute(trx),
      { relaxed: true },
    );
    if (!row) throw new Error('the throttle counter was not written');
    return {
      allowed: row.allowed,
      retryAfterSeconds: row.allowed
        ? 0
        : retryAfterSeconds(
            { current: row.current_count, previous: row.previous_count },
            limit,
            windowMs,
            row.elapsed,
          ),
    };
  }

  close(): Promise<void> {
    clearInterval(this.#sweeper);
    return Promise.resolve();
  }

  async #sweep(): Promise<void> {
    try {
      await sql`delete from throttle_windows
        where seen_at < floor(extract(epoch from clock_timestamp()) * 1000)::bigint - 2 * window_ms`.execute(
        this.database.db,
      );
    } catch (error) {
      // The next sweep tries again; a counter left over only takes a row.
      this.logger.debug({ err: error }, 'idle throttle counters could not be dropped this time');
    }
  }
}
