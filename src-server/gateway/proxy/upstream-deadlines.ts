import { RequestBodyTimeoutError, UpstreamTimeoutError } from './upstream-failure.js';

/** What the sweep needs to know of one request on its way to the target. */
export interface Deadline {
  connectMs: number;
  responseMs: number;
  /** The request body's inactivity limit (0: none, or the body is complete). */
  bodyMs: number;
  startedAt: number;
  /** Set once the connection (TLS included) is up. */
  connectedAt: number | undefined;
  /** Bumped by whoever moves bytes of the exchange (request body, response headers and body). */
  progress: number;
  /** Bumped as request body bytes arrive from the client. */
  bodyProgress: number;
  lastProgress: number;
  lastProgressAt: number;
  lastBodyProgress: number;
  lastBodyProgressAt: number;
  /** Links of the in-flight list (owned by UpstreamDeadlines). */
  previousDeadline: Deadline | undefined;
  nextDeadline: Deadline | undefined;
  tracked: boolean;
}

const SWEEP_MS = 100;

/**
 * Connect, response and request-body timeouts of all requests in flight, enforced by one sweep every 100 ms
 * instead of a timer per request (which costs more than the rest of the bookkeeping under load). The response
 * timeout counts inactivity: no byte moved for `responseMs` ends the exchange, so a long download or upload that
 * keeps moving is never cut. The body timeout counts the client's pauses while it sends its body. Precision: up to
 * 100 ms late.
 */
export class UpstreamDeadlines<D extends Deadline> {
  #head: D | undefined;
  #size = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly onExpired: (deadline: D, error: UpstreamTimeoutError | RequestBodyTimeoutError) => void,
  ) {}

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
    if (deadline.bodyMs > 0) {
      if (deadline.bodyProgress !== deadline.lastBodyProgress) {
        deadline.lastBodyProgress = deadline.bodyProgress;
        deadline.lastBodyProgressAt = now;
      } else if (now - deadline.lastBodyProgressAt >= deadline.bodyMs) {
        this.#expire(deadline, new RequestBodyTimeoutError());
        return;
      }
    }
    if (deadline.connectedAt === undefined) {
      if (now - deadline.startedAt >= deadline.connectMs)
        this.#expire(deadline, new UpstreamTimeoutError('connect'));
      return;
    }
    if (deadline.progress !== deadline.lastProgress) {
      deadline.lastProgress = deadline.progress;
      deadline.lastProgressAt = now;
    } else if (now - Math.max(deadline.lastProgressAt, deadline.connectedAt) >= deadline.responseMs) {
      this.#expire(deadline, new UpstreamTimeoutError('response'));
    }
  }

  #expire(deadline: D, error: UpstreamTimeoutError | RequestBodyTimeoutError): void {
    this.untrack(deadline);
    this.onExpired(deadline, error);
  }
}
