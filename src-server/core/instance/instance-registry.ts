import type { Database } from '../storage/database.js';
import type { Logger } from '../logging/logger.js';

/** How often a running instance says it is still there. */
const SEEN_EVERY_MS = 60_000;

export interface RegisteredInstance {
  name: string;
  startedAt: number;
  seenAt: number;
}

/**
 * The instances that use the database, by name (`Instance:Id`): each registers at start and is seen again every
 * minute while it runs, so the console can list them (and filter audit entries and monitoring records by one).
 */
export class InstanceRegistry {
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly database: Database,
    readonly name: string,
    private readonly now: () => number,
    private readonly logger: Logger,
  ) {}

  /**
   * Relaxed (no wait for the disk): no acknowledged write depends on the row, which is written again within a
   * minute; on SQLite the fsync of a plain statement, on the main thread, cost a cold start ~3.5 ms.
   */
  async start(): Promise<void> {
    const at = this.now();
    await this.database.transaction(
      (trx) =>
        trx
          .insertInto('instances')
          .values({ name: this.name, started_at: at, seen_at: at })
          .onConflict((conflict) => conflict.column('name').doUpdateSet({ started_at: at, seen_at: at }))
          .execute(),
      { relaxed: true },
    );
    this.#timer = setInterval(() => void this.#seen(), SEEN_EVERY_MS);
    this.#timer.unref();
  }

  async list(): Promise<RegisteredInstance[]> {
    const rows = await this.database.db
      .selectFrom('instances')
      .select(['name', 'started_at', 'seen_at'])
      .orderBy('name')
      .execute();
    return rows.map((row) => ({ name: row.name, startedAt: row.started_at, seenAt: row.seen_at }));
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  async #seen(): Promise<void> {
    try {
      await this.database.db
        .updateTable('instances')
        .set({ seen_at: this.now() })
        .where('name', '=', this.name)
        .execute();
    } catch (error) {
      this.logger.debug({ err: error }, 'this instance could not be marked as seen (the database is away)');
    }
  }
}
