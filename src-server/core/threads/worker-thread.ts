import { Worker, type WorkerOptions } from 'node:worker_threads';
import { isHeapKeptSmall, setHeapFlagsAgain } from './heap-sizing.js';

/**
 * `new Worker`, for every worker thread of the server. V8 configures each new isolate's heap from the flags, which
 * are the process's, and raises a growth factor below 2 back to 2 there: one worker thread started (the integrity
 * check 5 s after the start, the monitoring writer at the first gateway request) and the main thread's young
 * generation grew to 32 MiB again. So the flags are set again once the thread's isolate exists.
 */
export function startWorker(script: string | URL, options?: WorkerOptions): Worker {
  const worker = new Worker(script, options);
  if (isHeapKeptSmall()) {
    // 'online' once its isolate runs; 'exit' if it failed before (its isolate was configured all the same).
    worker.once('online', setHeapFlagsAgain);
    worker.once('exit', setHeapFlagsAgain);
  }
  return worker;
}
