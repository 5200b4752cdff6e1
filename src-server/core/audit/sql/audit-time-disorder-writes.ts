import type { Statement } from 'better-sqlite3';
import type { Database } from '../../storage/database.js';

/** The time-disorder triggers of migration 0023, which a bulk load drops while `TimeDisorderWrites` does their work. */
export const TIME_DISORDER_TRIGGERS = ['audit_time_disorder_low_id', 'audit_time_disorder_late'];

/**
 * SQLite: the rows of `audit_time_disorder` that migration 0023's triggers would write for entries inserted by a
 * writer that holds the data dir alone (the offline import, while it defers the triggers and the time index), in
 * the order they would: per entry, `audit_time_disorder_low_id` first (SQLite fires the newer trigger first), then
 * `audit_time_disorder_late`. The triggers' subqueries over `audit_entries` (its highest id, its oldest and newest
 * times) are kept here as the entries go by, so an entry in order costs no query; one out of order runs the
 * triggers' test and insert as they do.
 */
export class TimeDisorderWrites {
  private constructor(
    private maxId: number | null,
    private minTime: number | null,
    private maxTime: number | null,
    private readonly covered: Statement<[number, number]>,
    private readonly insert: Statement<[number, number]>,
  ) {}

  /** Reads the trail's ends (with the time index still there); undefined on PostgreSQL. */
  static read(database: Database): TimeDisorderWrites | undefined {
    const handle = database.sqlite;
    if (!handle) return undefined;
    const one = (text: string) => (handle.prepare(text).pluck().get() as number | null | undefined) ?? null;
    return new TimeDisorderWrites(
      one('select max(id) from audit_entries'),
      one('select min(time_ms) from audit_entries'),
      one('select max(time_ms) from audit_entries'),
      handle.prepare('select 1 from audit_time_disorder where hi_ms >= ? and lo_ms <= ? limit 1'),
      handle.prepare('insert into audit_time_disorder (lo_ms, hi_ms) values (?, ?)'),
    );
  }

  /** The entry `id` at `timeMs` is being inserted, in the transaction that inserts it, after those noted before. */
  note(id: number, timeMs: number): void {
    const minTime = this.minTime === null || timeMs < this.minTime ? timeMs : this.minTime;
    if (this.maxId !== null && id < this.maxId && this.covered.get(timeMs, minTime) === undefined)
      this.insert.run(minTime, timeMs);
    if (
      this.maxTime !== null &&
      timeMs < this.maxTime &&
      this.covered.get(this.maxTime, timeMs) === undefined
    )
      this.insert.run(timeMs, this.maxTime);
    this.minTime = minTime;
    if (this.maxTime === null || timeMs > this.maxTime) this.maxTime = timeMs;
    if (this.maxId === null || id > this.maxId) this.maxId = id;
  }
}
