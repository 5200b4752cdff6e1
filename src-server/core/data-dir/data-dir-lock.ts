import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { ErrorCode } from '../contracts/error-codes.js';
import { GatehouseError } from '../errors/gatehouse-error.js';

export interface LockOwner {
  pid: number;
  hostname: string;
  command: string;
  startedAt: string;
  /** Where a running server's Control Panel answers, once it does (for `gatehouse link`). */
  controlPanelUrl?: string;
}

export class DataDirLockedError extends GatehouseError {
  override name = 'DataDirLockedError';
  constructor(
    readonly dataDir: string,
    readonly owner: LockOwner,
  ) {
    super(
      ErrorCode.GH_ERR_DATA_DIR_LOCKED,
      `The data directory ${dataDir} is in use by "gatehouse ${owner.command}" (pid ${owner.pid}, since ${owner.startedAt}). ` +
        `Stop that process first, or use another --data-dir.`,
    );
  }
}

export interface DataDirLock {
  /** Adds where the server answers to the lock file, for commands that talk to it (`gatehouse link`). */
  announce: (details: { controlPanelUrl: string }) => Promise<void>;
  release: () => Promise<void>;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const textOr = (value: unknown, fallback: string): string => (typeof value === 'string' ? value : fallback);

async function readOwner(lockFile: string): Promise<LockOwner | undefined> {
  try {
    const parsed = JSON.parse(await readFile(lockFile, 'utf8')) as { [K in keyof LockOwner]?: unknown };
    if (typeof parsed.pid !== 'number') return undefined;
    return {
      pid: parsed.pid,
      hostname: textOr(parsed.hostname, ''),
      command: textOr(parsed.command, 'serve'),
      startedAt: textOr(parsed.startedAt, 'unknown'),
      ...(typeof parsed.controlPanelUrl === 'string' ? { controlPanelUrl: parsed.controlPanelUrl } : {}),
    };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    // A half-written or garbled lock file belongs to nobody we can name; treat it as stale.
    return undefined;
  }
}

/**
 * One writer per data dir: an exclusive-create lock file holding the owner's pid. A lock whose process is gone
 * (crash, kill -9) is taken over.
 */
export async function acquireDataDirLock(
  dataDir: string,
  lockFile: string,
  command: string,
): Promise<DataDirLock> {
  const owner: LockOwner = {
    pid: process.pid,
    hostname: hostname(),
    command,
    startedAt: new Date().toISOString(),
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(lockFile, 'wx', 0o600);
      try {
        await handle.writeFile(JSON.stringify(owner));
        await handle.sync();
      } finally {
        await handle.close();
      }
      let released = false;
      // If the process exits without a graceful close (uncaught error, process.exit), still free the dir.
      const releaseSync = () => rmSync(lockFile, { force: true });
      process.once('exit', releaseSync);
      return {
        async announce(details) {
          // Replaced whole by a rename, so the lock file never stops existing nor reads half-written.
          const temp = `${lockFile}.${randomBytes(6).toString('hex')}.tmp`;
          await writeFile(temp, JSON.stringify({ ...owner, ...details }), { mode: 0o600 });
          await rename(temp, lockFile);
        },
        async release() {
          if (released) return;
          released = true;
          process.off('exit', releaseSync);
          const current = await readOwner(lockFile);
          if (current?.pid === process.pid) await rm(lockFile, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const existing = await readOwner(lockFile);
    const sameHost = !existing || existing.hostname === '' || existing.hostname === hostname();
    if (existing && existing.pid !== process.pid && (!sameHost || isAlive(existing.pid))) {
      throw new DataDirLockedError(dataDir, existing);
    }
    if (existing?.pid === process.pid) {
      throw new DataDirLockedError(dataDir, existing);
    }
    await rm(lockFile, { force: true });
  }
  throw new Error(`Could not acquire the lock on ${dataDir}.`);
}

/** The process currently holding the lock, if it is alive. For read-only commands that want to say so. */
export async function currentLockOwner(lockFile: string): Promise<LockOwner | undefined> {
  const owner = await readOwner(lockFile);
  return owner && (owner.hostname !== hostname() || isAlive(owner.pid)) ? owner : undefined;
}
