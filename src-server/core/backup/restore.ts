import { chmod, copyFile, mkdir, realpath, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { rollBackAudit } from '../audit/sql/audit-rollback.js';
import { CREATED_AT_KEY, rollBackConfig } from '../config-store/config-rows.js';
import { rollBackDocuments } from '../config-store/document-store.js';
import { ErrorCode } from '../contracts/error-codes.js';
import { GatehouseError } from '../errors/gatehouse-error.js';
import type { Logger } from '../logging/logger.js';
import { rollBackMonitoring } from '../monitoring/sql/monitoring-rollback.js';
import { Database } from '../storage/database.js';
import { fsyncDirectory } from '../storage/durable-fs.js';
import { RESTORE_WINDOW_MS } from '../storage/restore-window.js';
import { SQLITE_FILE_NAME } from '../storage/sqlite-engine.js';
import {
  backupFileOf,
  backupFor,
  listBackups,
  restoreWindow,
  type BackupManifest,
} from './backup-catalog.js';
import type { JobRunner } from './backup-jobs.js';

export class RestoreError extends GatehouseError {
  override name = 'RestoreError';
  constructor(message: string, options?: ErrorOptions) {
    super(ErrorCode.GH_ERR_RESTORE_REFUSED, message, options);
  }
}

export interface RestoreOptions {
  /** The data dir whose database (and backups) the restore reads. */
  dataDir: string;
  backupDirectory: string;
  /** The moment to rebuild. */
  atMs: number;
  /** Where the rebuilt data dir goes: a new or empty folder, or the data dir itself (the server stopped). */
  into: string;
  /** The secrets key the database's secrets are sealed with (copied into a new data dir: it is not in the database). */
  secretsKeyFile: string;
  now: () => number;
  logger: Logger;
  run: JobRunner;
}

export interface RestoreOutcome {
  /** The backup rebuilt from, or undefined when the database itself was read (the moment is after every backup). */
  backup?: string;
  audit: { dropped: number; returned: number };
  monitoring: { dropped: number; returned: number };
  /** In place: where the replaced database was moved. */
  replacedMovedTo?: string;
}

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

function stampOf(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:.]/g, '');
}

/**
 * Rebuilds the configuration, audit trail, API monitoring and keys as they stood at `atMs`, from the first backup
 * taken after it (a full one, or a differential applied to its full one) or, for a moment after every backup, from
 * the database itself. The copy is taken back to the moment with the history it keeps (rows written since go,
 * rows removed since come back), then put in place: a new data dir gets the secrets key and appsettings.json too;
 * in place, the replaced database is moved aside into `replaced-<time>/`.
 */
export async function restore(options: RestoreOptions): Promise<RestoreOutcome> {
  const { dataDir, into, atMs } = options;
  const now = options.now();
  const liveFile = join(dataDir, SQLITE_FILE_NAME);
  const inPlace = (await realPath(into)) === (await realPath(dataDir));
  const target = join(into, SQLITE_FILE_NAME);
  if (!inPlace && (await exists(target))) {
    throw new RestoreError(`${into} already holds a database: restore into a new or empty folder.`);
  }
  const backups = await listBackups(options.backupDirectory);
  const backup = backupFor(backups, atMs);
  const readLive = !backup && (await exists(liveFile));
  const window = restoreWindow(
    backups,
    now,
    readLive ? { historyFromMs: now - RESTORE_WINDOW_MS } : undefined,
  );
  if (atMs > now || atMs < now - RESTORE_WINDOW_MS || (!backup && !readLive)) {
    const reach = window
      ? `from ${new Date(window.fromMs).toISOString()} to ${new Date(window.toMs).toISOString()}`
      : 'nothing: there is no backup and no database';
    throw new RestoreError(
      `${new Date(atMs).toISOString()} cannot be restored; the restorable window is ${reach}.`,
    );
  }

  await mkdir(into, { recursive: true, mode: 0o700 });
  const work = join(into, `.restore-${stampOf(now)}`);
  await mkdir(work, { mode: 0o700 });
  try {
    const working = join(work, SQLITE_FILE_NAME);
    await prepareCopy(options, backup, backups, working);
    const database = await Database.open({ dataDir: work, logger: options.logger });
    let outcome: RestoreOutcome;
    try {
      if (backup === undefined && (await createdAfter(database, atMs))) {
        throw new RestoreError(`The database did not exist yet at ${new Date(atMs).toISOString()}.`);
      }
      await rollBackConfig(database.db, atMs);
      await rollBackDocuments(database.db, atMs);
      await database.db.deleteFrom('key_material').where('created_at', '>', atMs).execute();
      const audit = await rollBackAudit(database, atMs);
      const monitoring = await rollBackMonitoring(database, atMs);
      outcome = { ...(backup ? { backup: backup.name } : {}), audit, monitoring };
    } finally {
      await database.close();
    }
    await chmod(working, 0o600);
    if (inPlace) outcome.replacedMovedTo = await moveAside(dataDir, now);
    await rename(working, target);
    await fsyncDirectory(into);
    if (!inPlace) await carryFiles(options);
    return outcome;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

async function prepareCopy(
  options: RestoreOptions,
  backup: BackupManifest | undefined,
  backups: readonly BackupManifest[],
  working: string,
): Promise<void> {
  const { backupDirectory, run } = options;
  if (!backup) {
    await run({ op: 'copy', source: join(options.dataDir, SQLITE_FILE_NAME), destination: working });
    return;
  }
  const full = backup.kind === 'full' ? backup : backups.find((candidate) => candidate.name === backup.base);
  if (!full)
    throw new RestoreError(`The full backup ${backup.base ?? '?'} that ${backup.name} builds on is missing.`);
  await copyFile(backupFileOf(backupDirectory, full.name), working);
  if (backup !== full) {
    await run({ op: 'apply', target: working, differential: backupFileOf(backupDirectory, backup.name) });
  }
}

async function createdAfter(database: Database, atMs: number): Promise<boolean> {
  const row = await database.db
    .selectFrom('meta')
    .select('value')
    .where('key', '=', CREATED_AT_KEY)
    .executeTakeFirst();
  return row !== undefined && Number(row.value) > atMs;
}

/** In place: the database being replaced (with its WAL) goes to `replaced-<time>/` in the data dir. */
async function moveAside(dataDir: string, now: number): Promise<string> {
  const aside = join(dataDir, `replaced-${stampOf(now)}`);
  await mkdir(aside, { mode: 0o700 });
  for (const suffix of ['', '-wal', '-shm']) {
    const file = join(dataDir, `${SQLITE_FILE_NAME}${suffix}`);
    if (await exists(file)) await rename(file, join(aside, `${SQLITE_FILE_NAME}${suffix}`));
  }
  await fsyncDirectory(dataDir);
  return aside;
}

/** A new data dir needs the secrets key (never in the database) and keeps the settings file. */
async function carryFiles(options: RestoreOptions): Promise<void> {
  const key = join(options.into, 'keys', 'secrets.key');
  if ((await exists(options.secretsKeyFile)) && !(await exists(key))) {
    await mkdir(join(options.into, 'keys'), { recursive: true, mode: 0o700 });
    await copyFile(options.secretsKeyFile, key);
    await chmod(key, 0o600);
  }
  const settings = join(options.dataDir, 'appsettings.json');
  const settingsCopy = join(options.into, 'appsettings.json');
  if ((await exists(settings)) && !(await exists(settingsCopy))) {
    await copyFile(settings, settingsCopy);
    await chmod(settingsCopy, 0o600);
  }
}

function realPath(path: string): Promise<string> {
  return realpath(path).catch(() => path);
}
