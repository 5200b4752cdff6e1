import { sql, type Kysely } from 'kysely';

const HOUR_MS = 3_600_000;

/**
 * Entries per tenant and UTC hour (`audit_hour_counts`), kept beside the per-day counts in the transaction that
 * adds or removes entries. A time range that starts or ends inside a day was counted from that day's rows: over
 * 1M entries (~16,700 a day) a one-day range read ~16,700 index entries per request, more than the page itself.
 * Now only the partial hours at its ends are (~700 each). Filled here from the existing rows. No index is added
 * to `audit_entries` (its planner statistics, 0009, stay as they are): the table's key is its only index.
 */
export function auditHourCounts() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('audit_hour_counts')
        .addColumn('tenant', 'text', (c) => c.notNull())
        .addColumn('hour', 'integer', (c) => c.notNull())
        .addColumn('n', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('audit_hour_counts_pk', ['tenant', 'hour'])
        .execute();
      // Integer division on both engines (times are positive); a literal, so select and group by are one expression.
      const hour = sql`time_ms / ${sql.lit(HOUR_MS)}`;
      await sql`insert into audit_hour_counts (tenant, hour, n)
        select tenant, ${hour}, count(*) from audit_entries group by tenant, ${hour}`.execute(db);
    },
  };
}
