import type { Kysely } from 'kysely';

/**
 * Several instances on one database (PostgreSQL): each audit entry and monitoring record names the instance that
 * wrote it (`Instance:Id`; empty for rows written before), and the instances register themselves, so the
 * console can list them and filter by one.
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
    },
  };
}
