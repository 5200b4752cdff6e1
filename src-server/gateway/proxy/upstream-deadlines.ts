import type { ClientRequest } from 'node:http';
import { UpstreamTimeoutError } from './upstream-failure.js';

/** What the sweep needs to know of one request on its way to the target. */
export interface Deadline {
  upstream: ClientRequest | undefined;
  connectMs: number;
  responseMs: number;
  startedAt: number;
  /** Set once the connection (TLS included) is up; a reused keep-alive connection is up at once. */
  connectedAt: number | undefined;
  lastProgress: number;
  lastProgressAt: number;
  /** Links of the in-flight list (owned by UpstreamDeadlines). */
  previousDeadline: Deadline | undefined;
  nextDeadline: Deadline | undefined;
  tracked: boolean;
}

const SWEEP_MS = 100;

/**
 * Connect and response timeouts of all requests in flight, enforced by one sweep every 100 ms instead of a timer
 * per request (which costs more than the rest of the bookkeeping under load). The response timeout counts
 * inactivity: no byte read from or written to the target's connection for `responseMs` ends the exchange,
 * so a long download or upload that keeps moving is never cut. Precision: up to 100 ms late.
 */
export class UpstreamDeadlines<D extends Deadline> {
  #head: D | undefined;
  #size = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(private readonly onExpired: (deadline: D, error: UpstreamTimeoutError) => void) {}

  track(deadline: D): void {
    if (deadline.tracked) return;
    deadline.tracked = true;
    deadline.previousDeadline = undefined;
    deadline.nextDeadline = this.#head;
    if (this.#head) this.#head.previousDeadline = deadline;
    this.#head = deadline;
    this.#size++;
    if (!this.#timer) {
      this.#timer = setInterval(() => this.#sweep(), SWEEP_MS);
      this.#timer.unref();
    }
  }

  untrack(deadline: D): void {
    if (!deadline.tracked) return;
    deadline.tracked = false;
    const { previousDeadline, nextDeadline } = deadline;
    if (previousDeadline) previousDeadline.nextDeadline = nextDeadline;
    else this.#head = nextDeadline as D | undefined;
    if (nextDeadline) nextDeadline.previousDeadline = previousDeadline;
    deadline.previousDeadline = undefined;
    deadline.nextDeadline = undefined;
    this.#size--;
  }

  get size(): number {
    return this.#size;
  }

  close(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    while (this.#head) this.untrack(this.#head);
  }

  #sweep(): void {
    if (this.#size === 0) {
      clearInterval(this.#timer);
      this.#timer = undefined;
      return;
    }
    const now = performance.now();
    for (let deadline = this.#head; deadline;) {
      const next = deadline.nextDeadline as D | undefined;
      this.#check(deadline, now);
      deadline = next;
    }
  }

  #check(deadline: D, now: number): void {
    {
      const socket = deadline.upstream?.socket;
      if (deadline.connectedAt === undefined) {
        if (now - deadline.startedAt >= deadline.connectMs) this.#expire(deadline, 'connect');
        return;
      }
      const progress = socket ? socket.bytesRead + socket.bytesWritten : deadline.lastProgress;
      if (progress !== deadline.lastProgress) {
        deadline.lastProgress = progress;
        deadline.lastProgressAt = now;
      } else if (now - Math.max(deadline.lastProgressAt, deadline.connectedAt) >= deadline.responseMs) {
        this.#expire(deadline, 'response');
      }
    }
  }

  #expire(deadline: D, phase: 'connect' | 'response'): void {
    this.untrack(deadline);
    this.onExpired(deadline, new UpstreamTimeoutError(phase));
  }
}
