import { getPriority, setPriority } from 'node:os';

/**
 * How far the import worker's thread is niced below the main thread's priority, which serves the gateway.
 * Parsing Microsoft Graph's description takes a core for a second or two; on a machine with fewer free cores
 * than busy threads, the scheduler otherwise shares them evenly, and the gateway's requests wait behind the
 * parse. At 10, the main thread gets about nine tenths of a contended core; an idle core still runs the import at
 * full speed.
 */
export const IMPORT_WORKER_NICE = 10;

const LOWEST_PRIORITY = 19;

/**
 * Lowers the calling thread's scheduling priority by `by` nice steps from what it inherited (a server started
 * with `nice -n 5` gets its imports at 15; 19 is the lowest). Linux only: its nice value is per thread
 * (setpriority with pid 0 changes the calling thread alone), while on Windows and macOS the same call would lower
 * the whole process, the gateway included. Returns whether it did.
 */
export function lowerThisThreadPriority(by: number = IMPORT_WORKER_NICE): boolean {
  if (process.platform !== 'linux') return false;
  try {
    setPriority(Math.min(LOWEST_PRIORITY, getPriority() + by));
    return true;
  } catch (error) {
    // Lowering one's own priority is always permitted; a sandbox that forbids the call only costs latency.
    process.emitWarning(`the import worker keeps its priority: ${String(error)}`);
    return false;
  }
}
