import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { backupDirectoryOf } from '../core/backup/backup-directory.js';
import { runHere } from '../core/backup/backup-jobs.js';
import { Backups } from '../core/backup/backups.js';
import { restore } from '../core/backup/restore.js';
import { acquireDataDirLock, DataDirLockedError } from '../core/data-dir/data-dir-lock.js';
import { dataDirLayout } from '../core/data-dir/default-data-dir.js';
import { secretsKeyFile } from '../core/config-store/secret-box.js';
import { createLogger } from '../core/logging/logger.js';
import { SettingsSource, type SettingsSnapshot } from '../core/settings/settings.js';
import { SQLITE_FILE_NAME } from '../core/storage/sqlite-engine.js';
import type { BackupManifest } from '../core/backup/backup-catalog.js';
import { dataDirOption } from './offline-tenant.js';
import { CommandError, UsageError } from './usage-error.js';

export const BACKUP_HELP = `gatehouse backup [--full] [--data-dir DIR]
gatehouse backup list [--data-dir DIR]

Backs up the embedded database into Backup:Directory (default: backups/ in the data dir): a full copy, or
a differential against the newest full one (--full forces a full one). Runs beside a running server.
list  The backups, their sizes, and the window of moments "gatehouse restore" can rebuild.
With ConnectionStrings:Gatehouse (PostgreSQL), use PostgreSQL's own tools: see the README.`;

export const RESTORE_HELP = `gatehouse restore --to <ISO 8601 date-time> --into DIR [--data-dir DIR]

Rebuilds configuration, audit trail, API monitoring and keys as they stood at that moment (within the last
35 days) into DIR, a new data dir: from the first backup taken after the moment, or from the database when
the moment is after every backup. DIR may be the data dir itself when its server is stopped: the replaced
database is then kept in replaced-<time>/.`;

async function embeddedDatabase(dataDir: string): Promise<{ settings: SettingsSnapshot; file: string }> {
  const settings = await new SettingsSource({ dataDir }).resolve();
  if (settings.str('ConnectionStrings:Gatehouse').trim()) {
    throw new CommandError(
      'This data dir uses PostgreSQL (ConnectionStrings:Gatehouse): back it up with pg_basebackup and WAL archiving, and restore with recovery_target_time (README: Backups).',
    );
  }
  const file = join(dataDir, SQLITE_FILE_NAME);
  return { settings, file };
}

const size = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;

function describe(backup: BackupManifest): string {
  const base = backup.base ? ` (on ${backup.base})` : '';
  return `${backup.takenAt}  ${backup.kind.padEnd(12)} ${size(backup.bytes).padStart(10)}  ${backup.name}${base}`;
}

export async function backupCommand(argv: string[], out: NodeJS.WritableStream): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { 'data-dir': { type: 'string' }, full: { type: 'boolean', default: false } },
    allowPositionals: true,
    strict: true,
  });
  const [sub, ...extra] = positionals;
  if (extra.length > 0 || (sub !== undefined && sub !== 'list')) {
    throw new UsageError(`Unknown arguments: ${positionals.join(' ')}\n\n${BACKUP_HELP}`);
  }
  const dataDir = dataDirOption(values['data-dir']);
  const { settings, file } = await embeddedDatabase(dataDir);
  if (!existsSync(file))
    throw new CommandError(`${dataDir} holds no database yet: start Gatehouse on it first.`);
  const backups = new Backups({
    databaseFile: file,
    directory: backupDirectoryOf(dataDir, settings),
    now: Date.now,
    run: runHere,
  });
  if (sub === 'list') {
    const list = await backups.list();
    out.write(`Backups in ${backups.directory}:\n`);
    if (list.length === 0) out.write('  none yet\n');
    for (const backup of list) out.write(`  ${describe(backup)}\n`);
    const window = await backups.window();
    out.write(
      window
        ? `Restorable: from ${new Date(window.fromMs).toISOString()} to ${new Date(window.toMs).toISOString()} (now, reading the database)\n`
        : 'Restorable: nothing yet\n',
    );
    return;
  }
  const started = Date.now();
  const taken = await backups.take({ full: values.full });
  out.write(`${describe(taken)}\nin ${backups.directory}, ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

export async function restoreCommand(argv: string[], out: NodeJS.WritableStream): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { 'data-dir': { type: 'string' }, to: { type: 'string' }, into: { type: 'string' } },
    strict: true,
  });
  if (!values.to || !values.into) throw new UsageError(`--to and --into are required.\n\n${RESTORE_HELP}`);
  const atMs = Date.parse(values.to);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(values.to) || Number.isNaN(atMs)) {
    throw new UsageError(
      `--to must be an ISO 8601 date-time such as 2026-11-20T14:30:00Z, not ${values.to}.`,
    );
  }
  const dataDir = dataDirOption(values['data-dir']);
  const into = resolve(values.into);
  const { settings } = await embeddedDatabase(dataDir);
  const layout = dataDirLayout(dataDir);
  // In place, the server must be stopped: the lock says whether it is. Elsewhere, the data dir is only read.
  const inPlace = into === dataDir;
  let lock: Awaited<ReturnType<typeof acquireDataDirLock>> | undefined;
  if (inPlace) {
    try {
      lock = await acquireDataDirLock(dataDir, layout.lockFile, 'restore');
    } catch (error) {
      if (error instanceof DataDirLockedError) {
        throw new CommandError(
          `Stop the server first: restoring in place replaces its database. ${error.message}`,
        );
      }
      throw error;
    }
  }
  try {
    const started = Date.now();
    const outcome = await restore({
      dataDir,
      backupDirectory: backupDirectoryOf(dataDir, settings),
      atMs,
      into,
      secretsKeyFile: secretsKeyFile(layout.keysDir, settings.str('Secrets:KeyFile')),
      now: Date.now,
      logger: createLogger('warn', process.stderr),
      run: runHere,
    });
    out.write(
      [
        `Restored ${new Date(atMs).toISOString()} into ${into} from ${outcome.backup ?? 'the database'}` +
          ` in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
        `Audit trail: ${outcome.audit.dropped} entries written later left out, ${outcome.audit.returned} removed later brought back.`,
        `API monitoring: ${outcome.monitoring.dropped} records left out, ${outcome.monitoring.returned} brought back.`,
        ...(outcome.replacedMovedTo ? [`The replaced database is in ${outcome.replacedMovedTo}.`] : []),
        '',
      ].join('\n'),
    );
  } finally {
    await lock?.release();
  }
}
