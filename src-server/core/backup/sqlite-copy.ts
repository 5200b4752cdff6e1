import BetterSqlite3 from 'better-sqlite3';
import { nativeBindingForRuntime } from '../storage/sqlite-engine.js';
import { SEARCH_DOCUMENT_SQL } from '../storage/migrations/0010-audit-search-batched.js';

/**
 * The tables a differential backup carries, and what it takes of each: the rows changed since the full backup it
 * builds on (by the times the rows carry), or the whole table (small tables, and the counts and roll-ups, which
 * are derived from the rows and taken in the same snapshot so they agree with them).
 *
 * Rows of the trail and of API monitoring are never updated: a removal moves them into the `*_removed` table, so
 * "changed since" is "written or removed since". Configuration versions are closed (`valid_to`) when replaced.
 */
export const CHANGED_ROWS: Readonly<Record<string, string>> = {
  // SQLite has one writer at a time and ids are taken in the writing transaction: a row committed after the full
  // backup's snapshot has a higher id than every row in it, whatever its time says.
  audit_entries: 'id > :auditAfter',
  audit_entries_removed: 'removed_at > :since',
  audit_resources: 'entry_id > :auditAfter',
  monitoring_records: 'id > :monitoringAfter',
  monitoring_records_removed: 'removed_at > :since',
  config_commits: 'committed_at > :since',
  config_records: 'valid_from > :since or valid_to > :since',
  api_documents: 'created_at > :since or removed_at > :since',
  key_material: 'created_at > :since',
  // The chain's evidence is only ever added (and a restore to a moment takes back what is younger).
  audit_chain_checkpoints: 'signed_at > :since',
  audit_chain_removals: 'removed_at > :since',
};

export const WHOLE_TABLES = [
  'sequences',
  'meta',
  'audit_day_counts',
  'audit_hour_counts',
  'audit_action_hour_counts',
  'audit_user_hour_counts',
  'audit_action_day_counts',
  'audit_user_day_counts',
  'audit_action_user_day_counts',
  'monitoring_rollups',
  'audit_sources',
  'instances',
  // One row per tenant: each chain's last link, moved by every write.
  'audit_chain_heads',
] as const;

/** Kysely's bookkeeping: a backup is restored into a database of the same schema, which has its own. */
export const NOT_CARRIED = ['schema_migrations', 'schema_migrations_lock'] as const;

/** Removals recorded in a differential, applied after its rows: the row leaves the live table. */
const REMOVALS = [
  { table: 'audit_entries', column: 'id', removed: 'audit_entries_removed' },
  { table: 'audit_resources', column: 'entry_id', removed: 'audit_entries_removed' },
  { table: 'monitoring_records', column: 'id', removed: 'monitoring_records_removed' },
] as const;

/** Only the named parameters a statement uses (better-sqlite3 refuses others). */
function parametersOf(where: string, all: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(all).filter(([name]) => where.includes(`:${name}`)));
}

function openSqlite(file: string, readonly: boolean): BetterSqlite3.Database {
  const handle = new BetterSqlite3(file, {
    readonly,
    fileMustExist: readonly,
    nativeBinding: nativeBindingForRuntime(),
  });
  handle.pragma('busy_timeout = 10000');
  return handle;
}

/** The newest migration the database has run: a differential applies only to a full backup of the same one. */
export function schemaOf(file: string): string {
  const handle = openSqlite(file, true);
  try {
    const row = handle.prepare('select max(name) as name from schema_migrations').get() as { name: string };
    return row.name;
  } finally {
    handle.close();
  }
}

/**
 * A consistent copy of a live database (SQLite's online backup, every page in one step so that writes of the
 * server's own connection meanwhile never restart it). Synchronous after the first step: run it off the main
 * thread in the server.
 */
export async function copyDatabase(source: string, destination: string): Promise<void> {
  const handle = openSqlite(source, true);
  try {
    await handle.backup(destination, { progress: () => 0x7fffffff });
  } finally {
    handle.close();
  }
  // The copy inherits WAL mode, and a later read-only open of a WAL file leaves -wal and -shm files beside it
  // that it may not remove: a backup is one file.
  const copy = openSqlite(destination, false);
  try {
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
}

/** The highest ids of the two large tables: where a differential against this database starts. */
export interface HighestIds {
  audit: number;
  monitoring: number;
}

export function highestIdsOf(file: string): HighestIds {
  const handle = openSqlite(file, true);
  try {
    const max = (table: string) =>
      (handle.prepare(`select coalesce(max(id), 0) as id from ${table}`).get() as { id: number }).id;
    return { audit: max('audit_entries'), monitoring: max('monitoring_records') };
  } finally {
    handle.close();
  }
}

/**
 * Writes into `destination` (a new file) the rows changed since the full backup (`since`, and the highest ids it
 * held) and the whole small tables, read in one snapshot of `source`.
 */
export function extractChanges(
  source: string,
  destination: string,
  since: number,
  after: HighestIds,
): Record<string, number> {
  const handle = openSqlite(destination, false);
  const counts: Record<string, number> = {};
  try {
    handle.pragma('journal_mode = DELETE');
    // Only read; attached read-write since this build of SQLite takes no URI filenames (mode=ro).
    handle.prepare('attach database ? as src').run(source);
    handle.exec('begin');
    for (const [table, where] of Object.entries(CHANGED_ROWS)) {
      handle
        .prepare(`create table main.${table} as select * from src.${table} where ${where}`)
        .run(parametersOf(where, { since, auditAfter: after.audit, monitoringAfter: after.monitoring }));
    }
    for (const table of WHOLE_TABLES) handle.exec(`create table main.${table} as select * from src.${table}`);
    handle.exec('commit');
    for (const table of [...Object.keys(CHANGED_ROWS), ...WHOLE_TABLES]) {
      counts[table] = (handle.prepare(`select count(*) as n from main.${table}`).get() as { n: number }).n;
    }
    handle.exec('detach database src');
  } finally {
    handle.close();
  }
  return counts;
}

/**
 * Brings `target` (a copy of the full backup a differential builds on) to the state the differential was taken
 * in: its changed rows replace or join the full's, its small tables replace the full's, and rows it records as
 * removed leave the live tables.
 */
export function applyChanges(target: string, differential: string): void {
  const handle = openSqlite(target, false);
  try {
    handle.prepare('attach database ? as diff').run(differential);
    handle.exec('begin');
    indexNewEntries(handle);
    for (const table of Object.keys(CHANGED_ROWS)) {
      handle.exec(`insert or replace into main.${table} select * from diff.${table}`);
    }
    for (const table of WHOLE_TABLES) {
      handle.exec(`delete from main.${table}`);
      handle.exec(`insert into main.${table} select * from diff.${table}`);
    }
    for (const { table, column, removed } of REMOVALS) {
      handle.exec(`delete from main.${table} where ${column} in (select id from diff.${removed})`);
    }
    handle.exec('commit');
    handle.exec('detach database diff');
  } finally {
    handle.close();
  }
}

/**
 * The differential's entries that the target does not hold yet go into its full-text index (migration 0010: the
 * writers index what they insert). A full backup taken before 0010 still has the trigger, which does it instead;
 * one taken before 0007 has no index yet (0007 fills it from the rows when the restored file is opened).
 */
function indexNewEntries(handle: BetterSqlite3.Database): void {
  const named = (name: string) =>
    handle.prepare('select 1 from main.sqlite_master where name = ?').get(name) !== undefined;
  if (named('audit_search_insert') || !named('audit_search')) return;
  handle.exec(`insert into main.audit_search (rowid, document)
    select id, ${SEARCH_DOCUMENT_SQL} from diff.audit_entries
    where id not in (select id from main.audit_entries)`);
}
