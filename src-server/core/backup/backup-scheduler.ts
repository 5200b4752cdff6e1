import type { ConfigStore } from '../config-store/config-store.js';
import type { Logger } from '../logging/logger.js';
import { RESTORE_WINDOW_MS } from '../storage/restore-window.js';
import { BACKUP_INTERVAL_MS } from './backup-catalog.js';
import type { Backups } from './backups.js';
import type { JobLease } from '../storage/job-lease.js';

const CHECK_EVERY_MS = 60 * 60_000;
/** Not at the very start: the first requests come first, and short-lived servers (tests, a quick look) skip it. */
const FIRST_CHECK_AFTER_MS = 60_000;

export interface BackupScheduleOptions {
  /** Undefined on PostgreSQL: its own tools back it up. */
  backups: Backups | undefined;
  configStore: ConfigStore;
  logger: Logger;
  now: () => Date;
  /** Runs only while this instance holds the background jobs; at once when it takes them over. */
  lease?: JobLease;
}

/**
 * The daily housekeeping of the database: a backup when the newest is a day old (embedded engine), and the
 * configuration versions the restore window no longer reaches dropped (both engines).
 */
export async function runDueBackup(options: BackupScheduleOptions): Promise<void> {
  const now = options.now().getTime();
  await options.configStore.prune(now - RESTORE_WINDOW_MS);
  if (!options.backups) return;
  const newest = (await options.backups.list()).at(-1);
  if (newest && now - newest.takenAtMs < BACKUP_INTERVAL_MS) return;
  const taken = await options.backups.take();
  options.logger.info(
    { backup: taken.name, kind: taken.kind, bytes: taken.bytes, directory: options.backups.directory },
    'scheduled backup taken',
  );
}

/** Checks hourly (the first time a minute after the start). The returned stop waits for a backup in progress. */
export function scheduleBackups(options: BackupScheduleOptions): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  const run = () => {
    if (options.lease && !options.lease.held) return;
    running = runDueBackup(options).catch((error: unknown) =>
      options.logger.error({ err: error }, 'the scheduled backup failed'),
    );
  };
  const first = setTimeout(run, FIRST_CHECK_AFTER_MS);
  first.unref();
  const stopListening = options.lease?.onAcquired(run);
  const timer = setInterval(run, CHECK_EVERY_MS);
  timer.unref();
  return async () => {
    stopListening?.();
    clearTimeout(first);
    clearInterval(timer);
    await running;
    await options.backups?.settled();
  };
}
