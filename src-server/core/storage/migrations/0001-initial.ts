import type { Kysely } from 'kysely';
import type { EngineKind } from '../engine-kind.js';

/**
 * The first schema. Column types are the ones both engines understand; where they differ (a 64-bit integer
 * key, bytes) the engine picks. SQLite's `integer primary key` is the row id itself, the fastest key it has.
 */
export function initialSchema(engine: EngineKind) {
  const id = engine === 'sqlite' ? 'integer' : 'bigint';
  const bytes = engine === 'sqlite' ? 'blob' : 'bytea';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('sequences')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('meta')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('config_revisions')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('committed_at', 'bigint', (c) => c.notNull())
        .addColumn('document', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('api_documents')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('media_type', 'text')
        .addColumn('content', bytes, (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('removed_at', 'bigint')
        .execute();
      await db.schema
        .createTable('key_material')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('sealed_value', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();

      for (const table of ['audit_entries', 'audit_entries_removed']) {
        let builder = db.schema
          .createTable(table)
          .addColumn('id', id, (c) => c.primaryKey())
          .addColumn('time_ms', 'bigint', (c) => c.notNull())
          .addColumn('action_key', 'text', (c) => c.notNull())
          .addColumn('user_key', 'text', (c) => c.notNull())
          .addColumn('category', 'text', (c) => c.notNull())
          .addColumn('agent_group_id', 'text')
          .addColumn('content_hash', 'text', (c) => c.notNull())
          .addColumn('entry', 'text', (c) => c.notNull())
          .addColumn('recorded_at', 'bigint', (c) => c.notNull());
        if (table === 'audit_entries_removed') {
          builder = builder.addColumn('removed_at', 'bigint', (c) => c.notNull());
        }
        await builder.execute();
      }
      await db.schema
        .createIndex('audit_entries_by_time')
        .on('audit_entries')
        .columns(['time_ms', 'id'])
        .execute();
      await db.schema
        .createIndex('audit_entries_by_action')
        .on('audit_entries')
        .columns(['action_key', 'time_ms', 'id'])
        .execute();
      await db.schema
        .createIndex('audit_entries_by_user')
        .on('audit_entries')
        .columns(['user_key', 'time_ms', 'id'])
        .execute();
      await db.schema
        .createIndex('audit_entries_agent_window')
        .on('audit_entries')
        .columns(['agent_group_id', 'time_ms', 'id'])
        .where('agent_group_id', 'is not', null)
        .execute();
      await db.schema
        .createIndex('audit_entries_removed_by_removal')
        .on('audit_entries_removed')
        .columns(['removed_at'])
        .execute();
      await db.schema
        .createTable('audit_resources')
        .addColumn('entry_id', id, (c) => c.notNull())
        .addColumn('resource_type', 'text', (c) => c.notNull())
        .addColumn('resource_id', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('audit_resources_pk', ['entry_id', 'resource_type', 'resource_id'])
        .execute();
      await db.schema
        .createIndex('audit_resources_by_resource')
        .on('audit_resources')
        .columns(['resource_type', 'resource_id'])
        .execute();
      await db.schema
        .createTable('audit_day_counts')
        .addColumn('day', 'integer', (c) => c.primaryKey())
        .addColumn('n', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('audit_action_day_counts')
        .addColumn('action_key', 'text', (c) => c.notNull())
        .addColumn('day', 'integer', (c) => c.notNull())
        .addColumn('action_name', 'text', (c) => c.notNull())
        .addColumn('n', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('audit_action_day_counts_pk', ['action_key', 'day'])
        .execute();
      await db.schema
        .createTable('audit_user_day_counts')
        .addColumn('user_key', 'text', (c) => c.notNull())
        .addColumn('day', 'integer', (c) => c.notNull())
        .addColumn('user_name', 'text', (c) => c.notNull())
        .addColumn('n', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('audit_user_day_counts_pk', ['user_key', 'day'])
        .execute();
      await db.schema
        .createTable('audit_action_user_day_counts')
        .addColumn('action_key', 'text', (c) => c.notNull())
        .addColumn('user_key', 'text', (c) => c.notNull())
        .addColumn('day', 'integer', (c) => c.notNull())
        .addColumn('n', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('audit_action_user_day_counts_pk', ['action_key', 'user_key', 'day'])
        .execute();

      for (const table of ['monitoring_records', 'monitoring_records_removed']) {
        let builder = db.schema
          .createTable(table)
          .addColumn('id', id, (c) => c.primaryKey())
          .addColumn('time_ms', 'bigint', (c) => c.notNull())
          .addColumn('agent_group_id', 'text', (c) => c.notNull())
          .addColumn('agent_group_name', 'text', (c) => c.notNull())
          .addColumn('method', 'text', (c) => c.notNull())
          .addColumn('path', 'text', (c) => c.notNull())
          .addColumn('api_id', 'text')
          .addColumn('api_name', 'text')
          .addColumn('operation', 'text')
          .addColumn('status', 'integer', (c) => c.notNull())
          .addColumn('duration_ms', 'double precision', (c) => c.notNull())
          .addColumn('bytes_in', 'bigint', (c) => c.notNull())
          .addColumn('bytes_out', 'bigint', (c) => c.notNull())
          .addColumn('target_url', 'text')
          .addColumn('outcome', 'text', (c) => c.notNull())
          .addColumn('client_ip', 'text', (c) => c.notNull())
          .addColumn('identity', 'text')
          .addColumn('reason', 'text')
          .addColumn('recorded_at', 'bigint', (c) => c.notNull());
        if (table === 'monitoring_records_removed') {
          builder = builder.addColumn('removed_at', 'bigint', (c) => c.notNull());
        }
        await builder.execute();
      }
      await db.schema
        .createIndex('monitoring_records_by_time')
        .on('monitoring_records')
        .columns(['time_ms', 'id'])
        .execute();
      await db.schema
        .createIndex('monitoring_records_by_api')
        .on('monitoring_records')
        .columns(['api_id', 'time_ms', 'id'])
        .execute();
      await db.schema
        .createIndex('monitoring_records_removed_by_removal')
        .on('monitoring_records_removed')
        .columns(['removed_at'])
        .execute();
      await db.schema
        .createTable('monitoring_rollups')
        .addColumn('granularity_ms', 'integer', (c) => c.notNull())
        .addColumn('dimension', 'text', (c) => c.notNull())
        .addColumn('dimension_value', 'text', (c) => c.notNull())
        .addColumn('bucket_ms', 'bigint', (c) => c.notNull())
        .addColumn('status_class', 'integer', (c) => c.notNull())
        .addColumn('n', 'bigint', (c) => c.notNull())
        .addColumn('duration_sum', 'double precision', (c) => c.notNull())
        .addColumn('duration_min', 'double precision', (c) => c.notNull())
        .addColumn('duration_max', 'double precision', (c) => c.notNull())
        .addColumn('bins', bytes, (c) => c.notNull())
        .addPrimaryKeyConstraint('monitoring_rollups_pk', [
          'granularity_ms',
          'dimension',
          'dimension_value',
          'bucket_ms',
          'status_class',
        ])
        .execute();
    },
  };
}
