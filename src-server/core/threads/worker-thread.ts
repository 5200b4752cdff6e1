import { setFlagsFromString } from 'node:v8';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * V8 doubles its young generation (up to 2 × 16 MiB) whenever many young objects survive a scavenge. `gatehouse
 * serve` keeps it at its initial size instead (see ../../cli.ts): 30 MB less resident memory once a workload has
 * grown it, as bench:audit's query mix at 1M entries does.
 */
const SMALL_YOUNG_GENERATION = '--semi-space-growth-factor=1';

let keepingYoungGenerationSmall = false;

/** For the process's life; set before the server's modules load. */
export function keepYoungGenerationSmall(): void {
  keepingYoungGenerationSmall = true;
  setFlagsFromString(SMALL_YOUNG_GENERATION);
}

/**
 * `new Worker`, for every worker thread of the server. V8 configures each new isolate's heap from the flags, which
 * are the process's, and raises a growth factor below 2 back to 2 there: one worker thread started (the integrity
 * check 5 s after the start, the monitoring writer at the first gateway request) and the main thread's young
 * generation grew to 32 MiB again. So the flag is set again once the thread's isolate exists.
 */
export function startWorker(script: string | URL, options?: WorkerOptions): Worker {
  const worker = new Worker(script, options);
  if (keepingYoungGenerationSmall) {
    const setAgain = () => setFlagsFromString(SMALL_YOUNG_GENERATION);
    // 'online' once its isolate runs; 'exit' if it failed before (its isolate was configured all the same).
    worker.once('online', setAgain);
    worker.once('exit', setAgain);
  }
  return worker;
}
