import { chmod, mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { fsyncDirectory, writeFileAtomic } from '../storage/durable-fs.js';
import { RESTORE_WINDOW_MS } from '../storage/restore-window.js';
import { nativeBindingForRuntime } from '../storage/sqlite-engine.js';
import {
  backupFileOf,
  backupName,
  baseForNext,
  expiredBackups,
  listBackups,
  manifestFileOf,
  removeBackup,
  restoreWindow,
  type BackupManifest,
  type RestoreWindow,
} from './backup-catalog.js';
import type { JobRunner } from './backup-jobs.js';
import { highestIdsOf, type HighestIds } from './sqlite-copy.js';

/** A differential takes rows changed since a little before its base was taken: a write in flight then is in. */
const CHANGES_MARGIN_MS = 10 * 60_000;

export interface BackupsOptions {
  /** The SQLite database file. */
  databaseFile: string;
  /** `Backup:Directory`. */
  directory: string;
  now: () => number;
  run: JobRunner;
}

/** What the database file says about itself: its schema and when its history starts. */
function describeDatabase(file: string): { schema: string; createdAtMs: number | undefined } {
  const handle = new BetterSqlite3(file, {
    readonly: true,
    fileMustExist: true,
    nativeBinding: nativeBindingForRuntime(),
  });
  try {
    const schema = (
      handle.prepare('select max(name) as name from schema_migrations').get() as { name: string }
    ).name;
    const created = handle.prepare(`select value from meta where key = 'created_at'`).get() as
      { value: string } | undefined;
    return { schema, createdAtMs: created ? Number(created.value) : undefined };
  } finally {
    handle.close();
  }
}

/**
 * Backups of the embedded database (seed §8): full copies, and daily differentials against the newest full,
 * each kept a month, in `Backup:Directory`. With the history the database keeps (removed rows and replaced
 * configuration versions, 35 days), any moment of the window can be rebuilt from the first backup after it.
 */
export class Backups {
  #running: Promise<BackupManifest> | undefined;

  constructor(private readonly options: BackupsOptions) {}

  get directory(): string {
    return this.options.directory;
  }

  list(): Promise<BackupManifest[]> {
    return listBackups(this.options.directory);
  }

  /** The moments a restore can rebuild, counting the database itself (it can be read now). */
  async window(): Promise<RestoreWindow | undefined> {
    const now = this.options.now();
    const { createdAtMs } = describeDatabase(this.options.databaseFile);
    return restoreWindow(await this.list(), now, {
      historyFromMs: Math.max(now - RESTORE_WINDOW_MS, createdAtMs ?? now),
    });
  }

  /** Takes a backup (one at a time: a call while one runs gets that one), then drops expired ones. */
  take(options: { full?: boolean } = {}): Promise<BackupManifest> {
    this.#running ??= this.#take(options.full === true).finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  async #take(forceFull: boolean): Promise<BackupManifest> {
    const { directory, databaseFile, run } = this.options;
    await mkdir(directory, { recursive: true, mode: 0o700 });
    await chmod(directory, 0o700);
    const takenAtMs = this.options.now();
    const { schema, createdAtMs } = describeDatabase(databaseFile);
    const backups = await this.list();
    const base = forceFull ? undefined : baseForNext(backups, schema, takenAtMs);
    const kind = base ? 'differential' : 'full';
    const name = backupName(takenAtMs, kind);
    const file = backupFileOf(directory, name);
    const partial = join(directory, `.${name}.db.partial`);
    await rm(partial, { force: true });
    const sinceMs = base ? base.takenAtMs - CHANGES_MARGIN_MS : undefined;
    let highestIds: HighestIds | undefined;
    try {
      if (!base || sinceMs === undefined) {
        await run({ op: 'copy', source: databaseFile, destination: partial });
        highestIds = highestIdsOf(partial);
      } else {
        const after = base.highestIds ?? { audit: 0, monitoring: 0 };
        await run({ op: 'extract', source: databaseFile, destination: partial, since: sinceMs, after });
      }
      await chmod(partial, 0o600);
      await syncFile(partial);
      await rename(partial, file);
      await fsyncDirectory(directory);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    const manifest: BackupManifest = {
      format: 1,
      name,
      kind,
      ...(base ? { base: base.name, sinceMs } : {}),
      takenAt: new Date(takenAtMs).toISOString(),
      takenAtMs,
      schema,
      ...(highestIds ? { highestIds } : {}),
      bytes: (await stat(file)).size,
      historyFromMs: Math.max(takenAtMs - RESTORE_WINDOW_MS, createdAtMs ?? takenAtMs),
    };
    await writeFileAtomic(manifestFileOf(directory, name), `${JSON.stringify(manifest, null, 2)}\n`, 0o600);
    for (const expired of expiredBackups(await this.list(), takenAtMs)) {
      await removeBackup(directory, expired);
    }
    return manifest;
  }

  /** Waits for a backup in progress (the server stops after it). */
  async settled(): Promise<void> {
    await this.#running?.catch(() => undefined);
  }
}

async function syncFile(file: string): Promise<void> {
  const handle = await open(file, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
