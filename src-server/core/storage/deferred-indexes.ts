import { sql, type Kysely, type Transaction } from 'kysely';
import type { EngineKind } from './engine-kind.js';
import type { GatehouseSchema } from './schema.js';

/** What these functions use of `Database`, whose open calls `restoreDeferredIndexes` (so it isn't imported here). */
interface IndexedDatabase {
  readonly kind: EngineKind;
  readonly db: Kysely<GatehouseSchema>;
  transaction: <T>(work: (trx: Transaction<GatehouseSchema>) => Promise<T>) => Promise<T>;
}

/**
 * SQLite: indexes that a bulk load drops while it writes and builds again at its end (`CREATE INDEX` sorts the rows
 * once; an index kept row by row takes each new row into a page somewhere in the middle of its tree), and triggers
 * whose work the load does itself meanwhile. The drop is recorded in `meta` until the rebuild commits, so a load
 * that dies between the two leaves a file whose next open (`Database.open`) builds them.
 */
const DEFERRED_KEY = 'deferred-indexes';

interface DeferredIndex {
  /** Absent in records of builds that deferred indexes only. */
  type?: 'index' | 'trigger';
  table: string;
  name: string;
  sql: string;
  /** Its fixed `sqlite_stat1` row (migrations' `fixPlannerStatistics`), which DROP INDEX deletes. */
  stat: string | null;
}

/**
 * Drops the indexes and triggers of these names (those that exist) and records them, in one transaction. Only for
 * a writer that holds the data dir alone (the offline `audit import`), which does the triggers' work itself: a
 * server's readers would find their indexes gone. Nothing on PostgreSQL.
 */
export async function deferIndexes(database: IndexedDatabase, names: readonly string[]): Promise<void> {
  if (database.kind !== 'sqlite') return;
  await database.transaction(async (trx) => {
    const { rows } = await sql<DeferredIndex>`select m.type, m.tbl_name as "table", m.name, m.sql, s.stat
      from sqlite_master m left join sqlite_stat1 s on s.idx = m.name
      where m.type in ('index', 'trigger') and m.name in (${sql.join(names)})`.execute(trx);
    if (rows.length === 0) return;
    await trx
      .insertInto('meta')
      .values({ key: DEFERRED_KEY, value: JSON.stringify(rows) })
      .onConflict((conflict) => conflict.column('key').doNothing())
      .execute();
    for (const { type, name } of rows)
      await sql`drop ${sql.raw(type === 'trigger' ? 'trigger' : 'index')} ${sql.id(name)}`.execute(trx);
  });
}

/**
 * Builds the indexes `deferIndexes` dropped, with their planner statistics, and creates its triggers again, and
 * forgets them, in one durable transaction; nothing when none are pending (one read of `meta`). Whether there were
 * any.
 */
export async function restoreDeferredIndexes(database: IndexedDatabase): Promise<boolean> {
  if (database.kind !== 'sqlite') return false;
  const pending = await database.db
    .selectFrom('meta')
    .select('value')
    .where('key', '=', DEFERRED_KEY)
    .executeTakeFirst();
  if (!pending) return false;
  await database.transaction(async (trx) => {
    for (const index of JSON.parse(pending.value) as DeferredIndex[]) {
      await sql
        .raw(index.sql.replace(/^create (unique index|index|trigger) /i, 'create $1 if not exists '))
        .execute(trx);
      await sql`delete from sqlite_stat1 where idx = ${index.name}`.execute(trx);
      if (index.stat !== null)
        await sql`insert into sqlite_stat1 (tbl, idx, stat) values (${index.table}, ${index.name}, ${index.stat})`.execute(
          trx,
        );
    }
    await trx.deleteFrom('meta').where('key', '=', DEFERRED_KEY).execute();
  });
  // Loads the statistics into this connection's schema; other connections read them when they open.
  await sql`analyze sqlite_schema`.execute(database.db);
  return true;
}
