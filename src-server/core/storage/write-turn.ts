/**
 * Turns at SQLite's write lock between the server's main thread and API monitoring's writer thread, which writes
 * to the same file on a connection of its own. SQLite lets one writer in at a time; the other waits in its busy
 * handler, which sleeps (1, 2, 5, 10… ms), and on the main thread that sleep holds the event loop and the gateway:
 * measured, a main-thread write behind a stream of monitoring chunks waited up to 60 ms (bench/monitoring-write-
 * thread.ts). So both take this turn first: the main thread waits for it asynchronously (Atomics.waitAsync, the
 * event loop free), and the writer thread gives way while the main thread waits. The busy timeout stays for other
 * processes on the file (the CLI).
 */
export class WriteTurn {
  /** Shared with the writer thread (posted to it; the memory is shared, not copied). */
  readonly buffer = new SharedArrayBuffer(8);
  readonly #state = new Int32Array(this.buffer);

  /** Resolves once this thread holds the turn. */
  async acquire(): Promise<void> {
    if (Atomics.compareExchange(this.#state, HELD, 0, 1) === 0) return;
    Atomics.add(this.#state, MAIN_WAITING, 1);
    try {
      for (;;) {
        const waited = (Atomics as unknown as AtomicsWithWaitAsync).waitAsync(
          this.#state,
          HELD,
          1,
          RECHECK_MS,
        );
        if (waited.async) await waited.value;
        if (Atomics.compareExchange(this.#state, HELD, 0, 1) === 0) return;
      }
    } finally {
      Atomics.sub(this.#state, MAIN_WAITING, 1);
    }
  }

  release(): void {
    release(this.#state);
  }
}

/** In the writer thread: blocks until it holds the turn, after the main thread when that waits for it. */
export function acquireTurnBlocking(buffer: SharedArrayBuffer): () => void {
  const state = new Int32Array(buffer);
  while (Atomics.load(state, MAIN_WAITING) > 0 || Atomics.compareExchange(state, HELD, 0, 1) !== 0) {
    Atomics.wait(state, HELD, Atomics.load(state, HELD), RECHECK_MS);
  }
  return () => release(state);
}

function release(state: Int32Array): void {
  Atomics.store(state, HELD, 0);
  Atomics.notify(state, HELD);
}

const HELD = 0;
const MAIN_WAITING = 1;
/** A missed wake-up costs at most this. */
const RECHECK_MS = 2;

interface AtomicsWithWaitAsync {
  waitAsync: (
    array: Int32Array,
    index: number,
    value: number,
    timeoutMs: number,
  ) => { async: false; value: string } | { async: true; value: Promise<string> };
}
