import type { Kysely } from 'kysely';

/**
 * API monitoring keeps which requests the All operations entry served (their `operation` now names what they
 * matched) and, for APIs that capture exchanges, the request and response headers and bodies as JSON. Both
 * tables: retention moves records with everything they hold, and a restore brings them back whole.
 */
export function monitoringCapture() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      for (const table of ['monitoring_records', 'monitoring_records_removed']) {
        await db.schema.alterTable(table).addColumn('via_all_operations', 'integer').execute();
        await db.schema.alterTable(table).addColumn('capture', 'text').execute();
      }
    },
  };
}
