import { sql, type Kysely } from 'kysely';
import type { EngineKind } from '../engine-kind.js';

/** The tenant every entry written before this step belongs to: Gatehouse's own trail. */
const OWN_TENANT = 'gatehouse';

/** The per-day count tables and their keys before this step; each gains `tenant` in front of its key. */
const COUNT_TABLES = [
  { table: 'audit_day_counts', key: ['day'], names: [] },
  { table: 'audit_action_day_counts', key: ['action_key', 'day'], names: ['action_name'] },
  { table: 'audit_user_day_counts', key: ['user_key', 'day'], names: ['user_name'] },
  { table: 'audit_action_user_day_counts', key: ['action_key', 'user_key', 'day'], names: [] },
] as const;

/**
 * Several tenants' trails in one database: every entry (live or removed) belongs to a named tenant, and the
 * per-day counts are kept per tenant, so a tenant's list and `totalCount` still read counts instead of rows.
 * Existing entries are Gatehouse's own. A key cannot be changed in place on SQLite, so each count table is
 * rebuilt under a new name, filled from the old one, and renamed. `audit_sources` holds the tenants' live endpoints
 * a trail is synced from.
 */
export function auditTenants(_engine: EngineKind) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      for (const table of ['audit_entries', 'audit_entries_removed']) {
        await db.schema
          .alterTable(table)
          .addColumn('tenant', 'text', (c) => c.notNull().defaultTo(OWN_TENANT))
          .execute();
      }
      await db.schema
        .createIndex('audit_entries_by_tenant')
        .on('audit_entries')
        .columns(['tenant', 'time_ms', 'id'])
        .execute();
      await db.schema
        .createIndex('audit_entries_by_tenant_hash')
        .on('audit_entries')
        .columns(['tenant', 'time_ms', 'content_hash'])
        .execute();

      for (const { table, key, names } of COUNT_TABLES) {
        const next = `${table}_next`;
        let builder = db.schema.createTable(next).addColumn('tenant', 'text', (c) => c.notNull());
        for (const column of key) {
          builder = builder.addColumn(column, column === 'day' ? 'integer' : 'text', (c) => c.notNull());
        }
        for (const column of names) builder = builder.addColumn(column, 'text', (c) => c.notNull());
        builder = builder
          .addColumn('n', 'bigint', (c) => c.notNull())
          .addPrimaryKeyConstraint(`${table}_tenant_pk`, ['tenant', ...key] as never);
        await builder.execute();
        const columns = [...key, ...names, 'n'];
        await sql`insert into ${sql.table(next)} (tenant, ${sql.join(columns.map((c) => sql.ref(c)))})
          select ${OWN_TENANT}, ${sql.join(columns.map((c) => sql.ref(c)))} from ${sql.table(table)}`.execute(
          db,
        );
        await db.schema.dropTable(table).execute();
        await db.schema.alterTable(next).renameTo(table).execute();
      }

      // Where a tenant's trail is synced from: its management API and how to get a token (secret sealed).
      await db.schema
        .createTable('audit_sources')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('tenant', 'text', (c) => c.notNull())
        .addColumn('base_url', 'text', (c) => c.notNull())
        .addColumn('auth', 'text', (c) => c.notNull())
        .addColumn('sealed_secret', 'text', (c) => c.notNull())
        .addColumn('sync_state', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  };
}
