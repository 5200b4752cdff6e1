import { setFlagsFromString } from 'node:v8';

/**
 * Scavenges done by the main thread alone, with no background thread to wait for: one request in five or six of
 * bench:audit's list shapes runs a scavenge (~0.3 ms of work), and V8 splits it with its helper threads and then
 * waits for them, and for the helper that frees the young generation's array buffers, before the scavenge ends. On a
 * busy 2-core machine a helper that took a share of the work and lost its CPU held the pause for 10–50 ms, once
 * 675 ms, with the main thread idle (`--trace-gc` beside each request's schedstat, bench/audit-tail-probe.ts): those
 * requests were the lists' p95. Only these two flags: V8 cannot take `--single-threaded-gc` or
 * `--no-parallel-marking` once it runs (its next full collection aborts the process).
 */
const SCAVENGE_ALONE = '--no-parallel-scavenge --no-concurrent-array-buffer-sweeping';

/**
 * V8's heap sizing for `gatehouse serve`, whose live heap is ~17 MB (mostly compiled code and the bundle's source):
 * - the young generation stays at its initial size while the gateway is quiet: V8 doubles it (up to 2 × 16 MiB)
 *   whenever many young objects survive a scavenge, and kept 30 MB more resident memory once bench:audit's query
 *   mix at 1M entries grew it. Under sustained gateway load it may grow (young-generation-follows-load.ts): there
 *   the small one cost 7–28 % more CPU per request (BENCHMARKS.md). Once the flag is back, V8's memory reducer
 *   shrinks it again about a minute after the load has gone;
 * - the old generation is collected once it has grown by half since the last full collection, instead of V8's
 *   factor for throughput (up to 4×, here ~2×): what a query promotes and drops no longer piles up as 10–15 MB of
 *   garbage between two collections of a heap this small.
 */
const SMALL_YOUNG_GENERATION = `--semi-space-growth-factor=1 --heap-growing-percent=50 ${SCAVENGE_ALONE}`;
const GROWING_YOUNG_GENERATION = `--semi-space-growth-factor=2 --heap-growing-percent=50 ${SCAVENGE_ALONE}`;

/** `v8`: V8's own sizing (Electron, the offline commands, `GATEHOUSE_HEAP=throughput`). */
let sizing: 'v8' | 'small' | 'growing' = 'v8';

/**
 * `GATEHOUSE_HEAP`: `small` (the default for `serve`) or `throughput`, V8's own sizing from the start. Undefined for
 * any other value.
 */
export function heapProfileOf(env: NodeJS.ProcessEnv): 'small' | 'throughput' | undefined {
  const value = (env.GATEHOUSE_HEAP ?? 'small').trim().toLowerCase();
  return value === 'small' || value === 'throughput' ? value : undefined;
}

/** For the process's life; set before the server's modules load. */
export function keepHeapSmall(): void {
  sizing = 'small';
  setHeapFlagsAgain();
}

export function isHeapKeptSmall(): boolean {
  return sizing !== 'v8';
}

/** Lets the young generation grow (the gateway is busy) or holds it at its size again; no-op with V8's sizing. */
export function letYoungGenerationGrow(grow: boolean): void {
  if (sizing === 'v8') return;
  sizing = grow ? 'growing' : 'small';
  setHeapFlagsAgain();
}

/** After a worker thread's isolate starts: V8 set the process's growth factor back to 2 there. */
export function setHeapFlagsAgain(): void {
  if (sizing === 'small') setFlagsFromString(SMALL_YOUNG_GENERATION);
  else if (sizing === 'growing') setFlagsFromString(GROWING_YOUNG_GENERATION);
}
