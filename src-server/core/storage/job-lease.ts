import type pg from 'pg';
import { loadPg } from './load-pg.js';
import type { Logger } from '../logging/logger.js';

/**
 * Which instance runs the background jobs (retention, backups, configuration-version pruning): exactly one of the
 * instances on a database at a time.
 */
export interface JobLease {
  /** This instance runs the background jobs now. */
  readonly held: boolean;
  /** Called each time this instance takes the jobs over (not for a lease held from the start, as on SQLite). */
  onAcquired: (listener: () => void) => () => void;
  close: () => Promise<void>;
}

/** SQLite: one instance per file (the data-dir lock), so it always runs the jobs. */
export const ALWAYS_HELD: JobLease = {
  held: true,
  onAcquired: () => () => undefined,
  close: () => Promise.resolve(),
};

/** How often an instance without the lease asks for it, and the holder checks that its connection still lives. */
const CHECK_EVERY_MS = 1_000;
/** The advisory lock's key, the same on every instance (hashtext is PostgreSQL's own, stable across versions). */
const LOCK_KEY = `hashtext('gatehouse.background-jobs')`;

/**
 * PostgreSQL: a session-level advisory lock on a connection of its own. The server releases it when that session
 * ends — the instance stopped, was killed (the kernel closes its socket) or lost the server — and the next
 * instance to ask takes it within a second. The holder stops running jobs as soon as its connection fails, before
 * another instance can have the lock, so two never run them at once.
 */
export class PostgresJobLease implements JobLease {
  #client: pg.Client | undefined;
  #held = false;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;
  #busy = false;
  readonly #listeners = new Set<() => void>();

  constructor(
    private readonly connectionString: string,
    private readonly instance: string,
    private readonly logger: Logger,
    private readonly checkEveryMs = CHECK_EVERY_MS,
  ) {}

  get held(): boolean {
    return this.#held;
  }

  onAcquired(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Asks for the lease now, and then every second until closed. Resolves after the first answer, so that an
   * instance which gets the lease at start runs the start-up jobs (retention before the first read) at once.
   */
  async start(): Promise<void> {
    this.#timer = setInterval(() => void this.#check(), this.checkEveryMs);
    this.#timer.unref();
    await this.#check();
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    this.#held = false;
    const client = this.#client;
    this.#client = undefined;
    // Ending the session releases the lock: the next instance takes the jobs over at its next check.
    await client?.end().catch((error: unknown) => {
      this.logger.debug({ err: error }, 'the background-jobs lock connection did not close cleanly');
    });
  }

  async #check(): Promise<void> {
    if (this.#busy || this.#closed) return;
    this.#busy = true;
    try {
      const client = this.#client ?? (await this.#connect());
      if (!client) return;
      if (this.#held) {
        await client.query('select 1');
        return;
      }
      const result = await client.query<{ taken: boolean }>(
        `select pg_try_advisory_lock(${LOCK_KEY}) as taken`,
      );
      if (result.rows.at(0)?.taken && this.#isCurrent(client)) {
        this.#held = true;
        this.logger.info({ instance: this.instance }, 'this instance now runs the background jobs');
        for (const listener of this.#listeners) listener();
      }
    } catch (error) {
      this.#lost(error);
    } finally {
      this.#busy = false;
    }
  }

  /** Still this lease's connection: not closed, nor lost and replaced, while a query was running. */
  #isCurrent(client: pg.Client): boolean {
    return !this.#closed && this.#client === client;
  }

  async #connect(): Promise<pg.Client | undefined> {
    const driver = await loadPg();
    const client = new driver.Client({
      connectionString: this.connectionString,
      keepAlive: true,
      // Names the holder in pg_stat_activity, next to its lock in pg_locks.
      application_name: `gatehouse-jobs:${this.instance}`.slice(0, 63),
    });
    client.on('error', (error) => this.#lost(error, client));
    client.on('end', () => this.#lost(undefined, client));
    this.#client = client;
    await client.connect();
    if (this.#closed) {
      await client.end();
      return undefined;
    }
    return client;
  }

  /** The session is gone, and the lock with it: stop running jobs at once, ask again at the next check. */
  #lost(error: unknown, client = this.#client): void {
    if (client !== this.#client || !client) return;
    this.#client = undefined;
    client.end().catch((closing: unknown) => {
      this.logger.debug({ err: closing }, 'a lost background-jobs lock connection did not close cleanly');
    });
    if (this.#closed) return;
    if (this.#held) {
      this.#held = false;
      this.logger.warn(
        { err: error, instance: this.instance },
        'this instance lost its connection holding the background jobs; another instance takes them over',
      );
    } else {
      this.logger.debug({ err: error }, 'the background-jobs lock could not be asked for');
    }
  }
}
