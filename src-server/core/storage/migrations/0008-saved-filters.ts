import type { Kysely } from 'kysely';

/**
 * Saved filters of the audit viewer: a name and a filter per user, in the database so every instance of a team
 * sees them. A name is unique per user, case-insensitively (`name_key`).
 */
export function savedFilters() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('saved_filters')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_name', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('name_key', 'text', (c) => c.notNull())
        .addColumn('filter', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('saved_filters_user_name', ['user_name', 'name_key'])
        .execute();
    },
  };
}
