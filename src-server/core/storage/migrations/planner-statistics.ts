import { sql, type Kysely } from 'kysely';

/**
 * SQLite: replaces `table`'s rows of `sqlite_stat1` with fixed ones (index name → stat), so the planner's choice of
 * index doesn't depend on whether, or when, ANALYZE last ran over the data at hand.
 */
export async function fixPlannerStatistics(
  db: Kysely<unknown>,
  table: string,
  statistics: Record<string, string>,
): Promise<void> {
  // ANALYZE of a one-row table creates `sqlite_stat1` when the database has none yet.
  await sql`analyze meta`.execute(db);
  await sql`delete from sqlite_stat1 where tbl = ${table}`.execute(db);
  for (const [index, stat] of Object.entries(statistics)) {
    await sql`insert into sqlite_stat1 (tbl, idx, stat) values (${table}, ${index}, ${stat})`.execute(db);
  }
  // Loads the statistics into this connection's schema; other connections read them when they open.
  await sql`analyze sqlite_schema`.execute(db);
}
