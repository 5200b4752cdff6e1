import type { Kysely } from 'kysely';

/**
 * Indexes of the count tables that hold what a timeline reads, count included, so SQLite answers from the index
 * alone (PostgreSQL with an index-only scan) in the order the timeline groups by. The tables' keys lead with the
 * name, then the day (or the hour, then the name, without the count): a timeline of every name over a range of
 * days read each of the tenant's rows of `audit_action_day_counts`, a per-hour one looked up a row per name and
 * hour, and the whole trail of one user split by action read all of `audit_action_user_day_counts` (~143,000
 * rows over 1M entries: 28 ms p95 over HTTP). The names as spelled (`timelineNames`, the facets) get the same.
 * The counts change with every write, so each index is kept in the write's transaction: a few rows per write.
 */
export function timelineCountIndexes() {
  const indexes = [
    ['audit_action_day_counts_by_day', 'audit_action_day_counts', ['tenant', 'day', 'action_key', 'n']],
    ['audit_user_day_counts_by_day', 'audit_user_day_counts', ['tenant', 'day', 'user_key', 'n']],
    [
      'audit_action_user_day_counts_by_user',
      'audit_action_user_day_counts',
      ['tenant', 'user_key', 'action_key', 'day', 'n'],
    ],
    ['audit_action_hour_counts_with_n', 'audit_action_hour_counts', ['tenant', 'hour', 'action_key', 'n']],
    ['audit_user_hour_counts_with_n', 'audit_user_hour_counts', ['tenant', 'hour', 'user_key', 'n']],
    ['audit_action_day_counts_names', 'audit_action_day_counts', ['tenant', 'action_key', 'action_name']],
    ['audit_user_day_counts_names', 'audit_user_day_counts', ['tenant', 'user_key', 'user_name']],
  ] as const;
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      for (const [name, table, columns] of indexes)
        await db.schema
          .createIndex(name)
          .on(table)
          .columns([...columns])
          .execute();
    },
  };
}
