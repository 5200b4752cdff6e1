import type { Kysely } from 'kysely';
import type { EngineKind } from '../engine-kind.js';
import { fixPlannerStatistics } from './planner-statistics.js';

/**
 * The row counts SQLite's planner assumes for `audit_entries` (a `sqlite_stat1` row per index: the rows, then the
 * rows per distinct value of each leading prefix). The shape of a trail, not one data dir's numbers: a few
 * tenants, about a hundred actions and a thousand users per tenant, times and hashes nearly unique. SQLite
 * documents fixing these by hand ("Fixed results of ANALYZE", lang_analyze.html): plans stay the same whatever the
 * data and no ANALYZE has to run. An index added to `audit_entries` needs its row here (a later migration), or
 * the planner guesses 10 rows per value for it and prefers it; test/unit/storage/planner-statistics.test.ts checks.
 */
export const AUDIT_ENTRY_STATISTICS: Readonly<Record<string, string>> = {
  audit_entries_by_time: '1000000 1 1',
  audit_entries_by_tenant: '1000000 250000 1 1',
  audit_entries_by_tenant_action: '1000000 250000 2500 1',
  audit_entries_by_tenant_user: '1000000 250000 250 1 1 1',
  audit_entries_by_tenant_hash: '1000000 250000 1 1',
  audit_entries_by_instance: '1000000 100000 1 1',
  audit_entries_agent_window: '100000 1000 1 1',
  audit_entries_by_chain: '1000000 250000 1',
};

/**
 * The action and user indexes lead with the tenant. Every list reads one tenant (Gatehouse's own unless asked),
 * and with `(action_key, time_ms, id)` SQLite chose `audit_entries_by_tenant` instead — with no statistics it
 * assumes any equality leaves ~10 rows, so one equality ties with another — and walked the tenant's whole trail
 * newest first, reading each row to test its user: over 1M entries one userName took 25 ms at the median, all
 * filters combined 100–170 ms. With the tenant in front and the statistics above, a filter's two equalities pick
 * these indexes, which end in the keyset order (time, id): a page is read in order, without a sort.
 *
 * The user index carries the action after the keyset order, so a filter on both (the pair the count tables serve)
 * tests the action in the index and reads only the matching rows: over 1M entries, all filters combined went from
 * 15 to 2 ms at the median (store level). They replace the old indexes rather than join them (every index costs
 * the import). On SQLite the row id is the entry id and ends every index by itself, so the action index does not
 * repeat it.
 */
export function auditTenantIndexes(engine: EngineKind) {
  const order = engine === 'sqlite' ? ['time_ms'] : ['time_ms', 'id'];
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex('audit_entries_by_action').execute();
      await db.schema.dropIndex('audit_entries_by_user').execute();
      await db.schema
        .createIndex('audit_entries_by_tenant_action')
        .on('audit_entries')
        .columns(['tenant', 'action_key', ...order])
        .execute();
      await db.schema
        .createIndex('audit_entries_by_tenant_user')
        .on('audit_entries')
        .columns(['tenant', 'user_key', 'time_ms', 'id', 'action_key'])
        .execute();
      if (engine === 'sqlite') await fixPlannerStatistics(db, 'audit_entries', AUDIT_ENTRY_STATISTICS);
    },
  };
}
