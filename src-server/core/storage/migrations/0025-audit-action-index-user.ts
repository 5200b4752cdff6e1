import type { Kysely } from 'kysely';
import type { EngineKind } from '../engine-kind.js';
import { AUDIT_ENTRY_STATISTICS as BEFORE } from './0019-audit-import-indexes.js';
import { fixPlannerStatistics } from './planner-statistics.js';

/** `audit_entries`' fixed planner statistics from this migration on (see 0009's): one more column, one more count. */
export const AUDIT_ENTRY_STATISTICS: Readonly<Record<string, string>> = {
  ...BEFORE,
  audit_entries_by_tenant_action: '1000000 250000 2500 1 1 1',
};

/**
 * SQLite: the action index carries the user after its keyset order, as the user index carries the action
 * (0009), so a filter on both tests the user in the index and reads only the matching rows, whichever index
 * `withPairIndexChoice` takes. Before, reading through the action index (a rare action of a busy user) read every
 * row of the action in the range to test its user (~4.5 µs each): over 1M entries, a week of one action and one
 * user took 2.5–7 ms for its page and up to 10 ms for its count, 1.2–2.5 ms and 0.1–1.3 ms with this index.
 * The index is built again (4–14 s over 1M entries at load 8–13, once). PostgreSQL: nothing (its action index is unchanged).
 */
export function auditActionIndexUser(engine: EngineKind) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (engine !== 'sqlite') return;
      await db.schema.dropIndex('audit_entries_by_tenant_action').ifExists().execute();
      await db.schema
        .createIndex('audit_entries_by_tenant_action')
        .on('audit_entries')
        .columns(['tenant', 'action_key', 'time_ms', 'id', 'user_key'])
        .execute();
      await fixPlannerStatistics(db, 'audit_entries', AUDIT_ENTRY_STATISTICS);
    },
  };
}
