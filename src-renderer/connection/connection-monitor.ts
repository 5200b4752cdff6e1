/**
 * Counts GET requests that are waiting for the Control Panel to come back, so the shell can say
 * "reconnecting…" while any of them retries.
 */
export class ConnectionMonitor {
  #retrying = 0;
  readonly #listeners = new Set<() => void>();

  /** Marks one request as retrying; call the returned function once it succeeded or gave up. */
  beginRetry(): () => void {
    this.#retrying++;
    this.#emit();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.#retrying--;
      this.#emit();
    };
  }

  isReconnecting = (): boolean => this.#retrying > 0;

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  #emit(): void {
    for (const listener of this.#listeners) listener();
  }
}

export const connectionMonitor = new ConnectionMonitor();
