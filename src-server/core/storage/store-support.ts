import * as path from 'node:path';
import { SegmentLog } from './segment-log.js';
import type { WarningReporter } from './types.js';

/** Promises still running (appends, imports, maintenance), so that `close` can wait for all of them. */
export class PendingOperations {
  private readonly pending = new Set<Promise<unknown>>();

  /** Remembers `operation` until it settles; returns it. */
  track<T>(operation: Promise<T>): Promise<T> {
    this.pending.add(operation);
    const forget = (): void => {
      this.pending.delete(operation);
    };
    operation.then(forget, forget);
    return operation;
  }

  /** Resolves once nothing tracked is running, including operations tracked while waiting. */
  async settle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }
}

export interface StoreLogOptions {
  /** Directory the store owns; segments go under `log/`. */
  dir: string;
  segmentMaxBytes?: number;
  onWarning: WarningReporter;
}

/**
 * Opens the segment log of a store under `dir/log` and builds the store over it with `build`. When
 * `build` fails, the log is closed again before the error propagates.
 */
export async function openStoreLog<T>(
  options: StoreLogOptions,
  build: (log: SegmentLog) => Promise<T>,
): Promise<T> {
  const log = await SegmentLog.open({
    dir: path.join(options.dir, 'log'),
    segmentMaxBytes: options.segmentMaxBytes,
    onWarning: options.onWarning,
  });
  try {
    return await build(log);
  } catch (error) {
    await log.close();
    throw error;
  }
}

/** Row of `id` in `ids[0 .. count)`, which holds ids in increasing order; -1 when absent (binary search). */
export function findSortedId(ids: ArrayLike<number>, count: number, id: number): number {
  let low = 0;
  let high = count - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const value = ids[middle]!;
    if (value === id) return middle;
    if (value < id) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}
