import type { Kysely } from 'kysely';

/**
 * Several instances on one database (PostgreSQL): each audit entry and monitoring record names the instance that
 * wrote it (`Instance:Id`; empty for rows written before), and the instances register themselves, so the
 * console can list them and filter by one. Instances without Redis count API-policy throttling in the database
 * (`throttle_windows`), so a client cannot exceed a limit by spreading its requests over them.
 */
export function instancesSchema() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      for (const table of [
        'audit_entries',
        'audit_entries_removed',
        'monitoring_records',
        'monitoring_records_removed',
      ]) {
        await db.schema.alterTable(table).addColumn('instance', 'text').execute();
      }
      await db.schema
        .createIndex('audit_entries_by_instance')
        .on('audit_entries')
        .columns(['instance', 'time_ms', 'id'])
        .execute();
      await db.schema
        .createIndex('monitoring_records_by_instance')
        .on('monitoring_records')
        .columns(['instance', 'time_ms', 'id'])
        .execute();
      await db.schema
        .createTable('instances')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('started_at', 'bigint', (c) => c.notNull())
        .addColumn('seen_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('throttle_windows')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('window_ms', 'bigint', (c) => c.notNull())
        .addColumn('window_start', 'bigint', (c) => c.notNull())
        .addColumn('current_count', 'integer', (c) => c.notNull())
        .addColumn('previous_count', 'integer', (c) => c.notNull())
        .addColumn('seen_at', 'bigint', (c) => c.notNull())
        .addColumn('allowed', 'boolean', (c) => c.notNull())
        .execute();
    },
  };
}
