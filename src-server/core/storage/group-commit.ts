interface Waiting<I, O> {
  item: I;
  resolve: (output: O) => void;
  reject: (error: unknown) => void;
}

/**
 * Commits concurrent writes together: while one batch is being committed, new items wait, and the next batch
 * takes all of them (up to `maxBatch`) in one transaction — one fsync for many acknowledged writes. Each caller
 * hears of its own item only after the batch that holds it committed; a failed batch rejects all of its items.
 */
export class GroupCommit<I, O> {
  private readonly queue: Waiting<I, O>[] = [];
  private running: Promise<void> | undefined;

  constructor(
    private readonly commit: (items: I[]) => Promise<O[]>,
    private readonly maxBatch = 1000,
  ) {}

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      // Started a microtask later: writes submitted in the same tick share the first batch too.
      this.running ??= Promise.resolve().then(() => this.drain());
    });
  }

  /** Resolves once everything submitted so far is committed (or failed). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.maxBatch);
        try {
          const outputs = await this.commit(batch.map((waiting) => waiting.item));
          batch.forEach((waiting, index) => waiting.resolve(outputs[index]!));
        } catch (error) {
          for (const waiting of batch) waiting.reject(error);
        }
      }
    } finally {
      this.running = undefined;
    }
  }
}
