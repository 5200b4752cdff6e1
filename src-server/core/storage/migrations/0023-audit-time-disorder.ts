import { sql, type Kysely } from 'kysely';
import type { EngineKind } from '../engine-kind.js';

/**
 * SQLite: the stretches of time where entries' ids are out of time order (`audit_time_disorder`), so a search over a
 * time range can read FTS5 by a rowid window instead (`searchIdWindow`) when no stretch reaches across the range's
 * ends. Each row covers every inverted pair it was written for: an entry written with an older time than the
 * newest already there (an import of older entries, commits that overtake each other) records [its time, that
 * newest time]; one written with an id below the highest records [the oldest time, its time]; unless a row already
 * covers it (an import of older entries in time order records one row). Written by triggers whose test is an index
 * seek or two per entry; the existing trail's pairs are found once here (a walk in id order, ~0.8 s over 1M
 * entries). Removals
 * leave rows behind: they only make the window's proof fail more often, never wrongly succeed.
 * PostgreSQL: nothing (its search reads `audit_terms`, keyed by time).
 */
const SQLITE_TIME_DISORDER = [
  `create table audit_time_disorder (lo_ms integer not null, hi_ms integer not null)`,
  `create index audit_time_disorder_by_hi on audit_time_disorder (hi_ms, lo_ms)`,
  `insert into audit_time_disorder (lo_ms, hi_ms)
     select time_ms, prior_max from (
       select time_ms, max(time_ms) over (order by id rows between unbounded preceding and 1 preceding) as prior_max
       from audit_entries)
     where time_ms < prior_max`,
  `create trigger audit_time_disorder_late after insert on audit_entries
     when new.time_ms < (select max(time_ms) from audit_entries)
       and not exists (select 1 from audit_time_disorder
         where hi_ms >= (select max(time_ms) from audit_entries) and lo_ms <= new.time_ms) begin
       insert into audit_time_disorder (lo_ms, hi_ms) values (new.time_ms, (select max(time_ms) from audit_entries));
     end`,
  `create trigger audit_time_disorder_low_id after insert on audit_entries
     when new.id < (select max(id) from audit_entries)
       and not exists (select 1 from audit_time_disorder
         where hi_ms >= new.time_ms and lo_ms <= (select min(time_ms) from audit_entries)) begin
       insert into audit_time_disorder (lo_ms, hi_ms) values ((select min(time_ms) from audit_entries), new.time_ms);
     end`,
];

export function auditTimeDisorder(engine: EngineKind) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (engine !== 'sqlite') return;
      for (const statement of SQLITE_TIME_DISORDER) await sql.raw(statement).execute(db);
    },
  };
}
