import { setFlagsFromString } from 'node:v8';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * V8's heap sizing for `gatehouse serve`, whose live heap is ~17 MB (mostly compiled code and the bundle's source):
 * - the young generation stays at its initial size: V8 doubles it (up to 2 × 16 MiB) whenever many young objects
 *   survive a scavenge, and kept 30 MB more resident memory once bench:audit's query mix at 1M entries grew it;
 * - the old generation is collected once it has grown by half since the last full collection, instead of V8's
 *   factor for throughput (up to 4×, here ~2×): what a query promotes and drops no longer piles up as 10–15 MB of
 *   garbage between two collections of a heap this small.
 */
const SMALL_HEAP_FLAGS = '--semi-space-growth-factor=1 --heap-growing-percent=50';

let keepingHeapSmall = false;

/**
 * `GATEHOUSE_HEAP`: `small` (the default for `serve`) or `throughput`, V8's own sizing. The small young generation
 * costs the gateway CPU under heavy load (more scavenges: about 10 % more CPU per request through `serve` under wrk,
 * BENCHMARKS.md), which a team's busy gateway may rather spend than the ~30 MB. Undefined for any other value.
 */
export function heapProfileOf(env: NodeJS.ProcessEnv): 'small' | 'throughput' | undefined {
  const value = (env.GATEHOUSE_HEAP ?? 'small').trim().toLowerCase();
  return value === 'small' || value === 'throughput' ? value : undefined;
}

/** For the process's life; set before the server's modules load. */
export function keepHeapSmall(): void {
  keepingHeapSmall = true;
  setFlagsFromString(SMALL_HEAP_FLAGS);
}

/**
 * `new Worker`, for every worker thread of the server. V8 configures each new isolate's heap from the flags, which
 * are the process's, and raises a growth factor below 2 back to 2 there: one worker thread started (the integrity
 * check 5 s after the start, the monitoring writer at the first gateway request) and the main thread's young
 * generation grew to 32 MiB again. So the flags are set again once the thread's isolate exists.
 */
export function startWorker(script: string | URL, options?: WorkerOptions): Worker {
  const worker = new Worker(script, options);
  if (keepingHeapSmall) {
    const setAgain = () => setFlagsFromString(SMALL_HEAP_FLAGS);
    // 'online' once its isolate runs; 'exit' if it failed before (its isolate was configured all the same).
    worker.once('online', setAgain);
    worker.once('exit', setAgain);
  }
  return worker;
}
