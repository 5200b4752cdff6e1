import { sql, type Kysely } from 'kysely';
import type { EngineKind } from '../engine-kind.js';
import { AUDIT_ENTRY_STATISTICS as BEFORE } from './0009-audit-tenant-indexes.js';
import { fixPlannerStatistics } from './planner-statistics.js';

/** `audit_entries`' fixed planner statistics from this migration on (see 0009's). */
export const AUDIT_ENTRY_STATISTICS: Readonly<Record<string, string>> = Object.fromEntries([
  ...Object.entries(BEFORE).filter(([index]) => index !== 'audit_entries_by_tenant_hash'),
  ['audit_entries_by_tenant', '1000000 250000 1 1 1'],
]);

/**
 * Two fewer index entries per audit entry written (every import writes one per index):
 * - `audit_entries_by_tenant` carries the content digest after its keyset order, and `audit_entries_by_tenant_hash`
 *   (tenant, time, digest), which only an import's duplicate lookup read, goes: the lookup reads the same index
 *   entries from the tenant index instead, covered, and every list reads the tenant index as before (the plans of
 *   bench:audit's query shapes over a 1M-entry trail were the same before and after but for that lookup's);
 * - the instance index holds only entries that name an instance, as monitoring's does since 0016: imported and
 *   synced entries name none, and an `instance = …` filter never matches an entry without one (both engines use a
 *   partial index for it).
 * Re-runnable: a data dir whose migration record was taken back (an upgrade test does that) runs it again.
 */
export function auditImportIndexes(engine: EngineKind) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex('audit_entries_by_tenant_hash').ifExists().execute();
      await db.schema.dropIndex('audit_entries_by_tenant').ifExists().execute();
      await db.schema
        .createIndex('audit_entries_by_tenant')
        .on('audit_entries')
        .columns(['tenant', 'time_ms', 'id', 'content_hash'])
        .execute();
      await db.schema.dropIndex('audit_entries_by_instance').ifExists().execute();
      await sql`create index audit_entries_by_instance on audit_entries (instance, time_ms, id) where instance is not null`.execute(
        db,
      );
      if (engine === 'sqlite') await fixPlannerStatistics(db, 'audit_entries', AUDIT_ENTRY_STATISTICS);
    },
  };
}
