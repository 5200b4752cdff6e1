import type { Logger } from '../../logging/logger.js';
import type { Database } from '../../storage/database.js';
import type { JobLease } from '../../storage/job-lease.js';
import { writeCheckpoints } from './chain-checkpoints.js';
import type { ChainSigner } from './chain-signer.js';

export interface CheckpointScheduleOptions {
  database: Database;
  signer: ChainSigner;
  logger: Logger;
  now: () => number;
  intervalMs: number;
  /** Runs only while this instance holds the background jobs. */
  lease?: JobLease;
}

/** Signed checkpoints at a regular interval; the returned stop function waits for a run in progress. */
export function scheduleCheckpoints(options: CheckpointScheduleOptions): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  const run = () => {
    if (options.lease && !options.lease.held) return;
    running = writeCheckpoints(options.database, options.signer, options.now).catch((error: unknown) =>
      options.logger.error({ err: error }, 'audit checkpoint failed'),
    );
  };
  const timer = setInterval(run, options.intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
