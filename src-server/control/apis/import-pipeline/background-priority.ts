import { setPriority } from 'node:os';

/**
 * The nice value of the import worker's thread: well below the main thread's (0), which serves the gateway.
 * Parsing Microsoft Graph's description takes a core for a second or two; on a machine with fewer free cores
 * than busy threads, the scheduler otherwise shares them evenly, and the gateway's requests wait behind the
 * parse. At 10, the main thread gets about nine tenths of a contended core; an idle core still runs the import at
 * full speed.
 */
export const IMPORT_WORKER_NICE = 10;

/**
 * Lowers the calling thread's scheduling priority. Linux only: its nice value is per thread (setpriority with
 * pid 0 changes the calling thread alone), while on Windows and macOS the same call would lower the whole
 * process, the gateway included. Returns whether it did.
 */
export function lowerThisThreadPriority(nice: number = IMPORT_WORKER_NICE): boolean {
  if (process.platform !== 'linux') return false;
  try {
    setPriority(nice);
    return true;
  } catch (error) {
    // Lowering one's own priority is always permitted; a sandbox that forbids the call only costs latency.
    process.emitWarning(`the import worker keeps its priority: ${String(error)}`);
    return false;
  }
}
