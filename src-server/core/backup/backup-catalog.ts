import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { RESTORE_WINDOW_MS } from '../storage/restore-window.js';

const DAY_MS = 86_400_000;
/** Each backup is kept a month (seed §8). */
export const BACKUP_KEPT_MS = 31 * DAY_MS;
/** Differentials build on the newest full backup; a new full is taken when that one is a week old. */
export const FULL_BACKUP_EVERY_MS = 7 * DAY_MS;
/** Backups are daily. */
export const BACKUP_INTERVAL_MS = DAY_MS;

/** What `<name>.json` beside each backup file records. Written last: a backup without it is incomplete. */
export interface BackupManifest {
  format: 1;
  name: string;
  kind: 'full' | 'differential';
  /** The full backup a differential builds on. */
  base?: string;
  takenAt: string;
  takenAtMs: number;
  /** A differential holds the rows changed since this time (a margin before its base was taken). */
  sinceMs?: number;
  /** The newest migration of the database it was taken of. */
  schema: string;
  /** A full backup: the highest audit entry and monitoring record ids it holds (differentials take higher ones). */
  highestIds?: { audit: number; monitoring: number };
  /** The backup file's size. */
  bytes: number;
  /** The earliest moment it can rebuild: the restore window the database kept when it was taken. */
  historyFromMs: number;
}

export interface RestoreWindow {
  fromMs: number;
  toMs: number;
}

export function backupFileOf(directory: string, name: string): string {
  return join(directory, `${name}.db`);
}

export function manifestFileOf(directory: string, name: string): string {
  return join(directory, `${name}.json`);
}

/** `gatehouse-20261125T180000123Z-full`: sorts by time. */
export function backupName(takenAtMs: number, kind: BackupManifest['kind']): string {
  const stamp = new Date(takenAtMs).toISOString().replace(/[-:.]/g, '');
  return `gatehouse-${stamp}-${kind === 'full' ? 'full' : 'diff'}`;
}

/** The complete backups in the directory, oldest first (none when it does not exist yet). */
export async function listBackups(directory: string): Promise<BackupManifest[]> {
  let names: string[];
  try {
    names = await readdir(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const manifests: BackupManifest[] = [];
  for (const file of names) {
    if (!/^gatehouse-.*\.json$/.test(file)) continue;
    // A manifest of another format (a later version's) is not one this version can restore from.
    const read = JSON.parse(await readFile(join(directory, file), 'utf8')) as { format?: unknown };
    if (read.format !== 1) continue;
    const manifest = read as BackupManifest;
    const present = await stat(backupFileOf(directory, manifest.name)).then(
      (info) => info.isFile(),
      () => false,
    );
    if (present) manifests.push(manifest);
  }
  // A differential is of no use without the full backup it builds on.
  const fulls = new Set(manifests.filter((backup) => backup.kind === 'full').map((backup) => backup.name));
  return manifests
    .filter((backup) => backup.base === undefined || fulls.has(backup.base))
    .sort((a, b) => a.takenAtMs - b.takenAtMs);
}

/** The full backup the next differential would build on, if one may (else the next backup is a full one). */
export function baseForNext(
  backups: readonly BackupManifest[],
  schema: string,
  now: number,
): BackupManifest | undefined {
  const full = backups.filter((backup) => backup.kind === 'full').at(-1);
  if (!full || full.schema !== schema || now - full.takenAtMs >= FULL_BACKUP_EVERY_MS) return undefined;
  return full;
}

/** Backups past their month, except full ones that a kept differential still builds on. */
export function expiredBackups(backups: readonly BackupManifest[], now: number): BackupManifest[] {
  const kept = backups.filter((backup) => now - backup.takenAtMs < BACKUP_KEPT_MS);
  const needed = new Set(kept.map((backup) => backup.base).filter((base) => base !== undefined));
  return backups.filter((backup) => now - backup.takenAtMs >= BACKUP_KEPT_MS && !needed.has(backup.name));
}

export async function removeBackup(directory: string, backup: BackupManifest): Promise<void> {
  // The manifest first: a backup without one is not listed, whatever is left of it.
  await rm(manifestFileOf(directory, backup.name), { force: true });
  await rm(backupFileOf(directory, backup.name), { force: true });
}

/**
 * The moments a restore can rebuild: from the backups (each reaches back as far as its database kept history,
 * never beyond the 35-day window) and, when `live` is given, from the database itself up to now.
 */
export function restoreWindow(
  backups: readonly BackupManifest[],
  now: number,
  live?: { historyFromMs: number },
): RestoreWindow | undefined {
  const sources = [
    ...backups.map((backup) => ({ from: backup.historyFromMs, to: backup.takenAtMs })),
    ...(live ? [{ from: live.historyFromMs, to: now }] : []),
  ];
  if (sources.length === 0) return undefined;
  const fromMs = Math.max(now - RESTORE_WINDOW_MS, Math.min(...sources.map((source) => source.from)));
  const toMs = Math.max(...sources.map((source) => source.to));
  return fromMs <= toMs ? { fromMs, toMs } : undefined;
}

/**
 * The backup to rebuild the moment `atMs` from: the earliest one taken at or after it that still reaches back to
 * it (it holds the least history to undo). Undefined when none does.
 */
export function backupFor(backups: readonly BackupManifest[], atMs: number): BackupManifest | undefined {
  return backups.find((backup) => backup.takenAtMs >= atMs && backup.historyFromMs <= atMs);
}
