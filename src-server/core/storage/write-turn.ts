/**
 * Turns at SQLite's write lock between the server's main thread and API monitoring's writer thread, which writes
 * to the same file on a connection of its own. SQLite lets one writer in at a time; the other waits in its busy
 * handler, which sleeps (1, 2, 5, 10… ms), and on the main thread that sleep holds the event loop and the gateway:
 * measured, a main-thread write behind a stream of monitoring chunks waited up to 60 ms (bench/monitoring-write-
 * thread.ts). So both take this turn first: the main thread waits for it asynchronously (Atomics.waitAsync, the
 * event loop free), and the writer thread gives way while the main thread waits: it does not take the turn, and
 * one it holds it ends early (`WriterTurn.mainThreadWaits`). The busy timeout stays for other processes on the file
 * (the CLI).
 */
export class WriteTurn {
  /** Shared with the writer thread (posted to it; the memory is shared, not copied). */
  readonly buffer = new SharedArrayBuffer(8);
  readonly #state = new Int32Array(this.buffer);

  /** Resolves once this thread holds the turn. */
  async acquire(): Promise<void> {
    if (Atomics.compareExchange(this.#state, HOLDER, FREE, MAIN) === FREE) return;
    Atomics.add(this.#state, MAIN_WAITING, 1);
    try {
      for (;;) {
        const holder = Atomics.load(this.#state, HOLDER);
        if (holder === FREE && Atomics.compareExchange(this.#state, HOLDER, FREE, MAIN) === FREE) return;
        const waited = (Atomics as unknown as AtomicsWithWaitAsync).waitAsync(
          this.#state,
          HOLDER,
          holder,
          RECHECK_MS,
        );
        if (waited.async) await waited.value;
      }
    } finally {
      Atomics.sub(this.#state, MAIN_WAITING, 1);
    }
  }

  release(): void {
    release(this.#state);
  }

  /**
   * After the writer thread ended: a turn it held is free again. Its connection closed with it, which rolled back
   * its transaction and released SQLite's lock; without this, the main thread would wait for the turn forever.
   */
  releaseFromEndedWriter(): void {
    if (Atomics.compareExchange(this.#state, HOLDER, WRITER, FREE) === WRITER)
      Atomics.notify(this.#state, HOLDER);
  }
}

/** The writer thread's side of a WriteTurn, on the buffer posted to it. */
export class WriterTurn {
  readonly #state: Int32Array;

  constructor(buffer: SharedArrayBuffer) {
    this.#state = new Int32Array(buffer);
  }

  /** Blocks until the writer thread holds the turn, after the main thread when that waits for it. */
  acquireBlocking(): void {
    for (;;) {
      const holder = Atomics.load(this.#state, HOLDER);
      if (
        holder === FREE &&
        Atomics.load(this.#state, MAIN_WAITING) === 0 &&
        Atomics.compareExchange(this.#state, HOLDER, FREE, WRITER) === FREE
      ) {
        return;
      }
      Atomics.wait(this.#state, HOLDER, holder, RECHECK_MS);
    }
  }

  /** Whether the main thread waits for the turn: the writer thread commits what it has and gives it up. */
  mainThreadWaits(): boolean {
    return Atomics.load(this.#state, MAIN_WAITING) > 0;
  }

  release(): void {
    release(this.#state);
  }
}

function release(state: Int32Array): void {
  Atomics.store(state, HOLDER, FREE);
  Atomics.notify(state, HOLDER);
}

/** Who holds the turn: FREE, MAIN or WRITER. */
const HOLDER = 0;
const MAIN_WAITING = 1;
const FREE = 0;
const MAIN = 1;
const WRITER = 2;
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
