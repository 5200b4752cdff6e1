import { isHeapKeptSmall, letYoungGenerationGrow } from './heap-sizing.js';

export interface LoadThresholds {
  /** Requests per second from which the gateway counts as busy… */
  busyPerSecond: number;
  /** …once it has been for this long. */
  busyForSeconds: number;
  /** Requests per second under which it counts as quiet again… */
  quietPerSecond: number;
  /** …once it has been for this long. */
  quietForSeconds: number;
}

/**
 * A few hundred requests a second cost the small young generation little; at thousands it costs 7–28 % more CPU per
 * request. Quiet for a while before shrinking back, so that a pause in a load test does not flip the sizing.
 */
export const GATEWAY_LOAD_THRESHOLDS: LoadThresholds = {
  busyPerSecond: 500,
  busyForSeconds: 3,
  quietPerSecond: 100,
  quietForSeconds: 30,
};

/**
 * Under `gatehouse serve`'s small heap (heap-sizing.ts): lets the young generation grow while the gateway carries
 * sustained load, and holds it small again once the gateway has been quiet for a while. Counts requests; samples
 * their rate once a second.
 */
export class YoungGenerationFollowsLoad {
  #requests = 0;
  #sampled = 0;
  #busyFor = 0;
  #quietFor = 0;
  #growing = false;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly grow: (yes: boolean) => void = letYoungGenerationGrow,
    private readonly thresholds: LoadThresholds = GATEWAY_LOAD_THRESHOLDS,
  ) {}

  countRequest(): void {
    this.#requests++;
  }

  get growing(): boolean {
    return this.#growing;
  }

  start(intervalMs = 1000): void {
    this.#timer ??= setInterval(() => this.sample(intervalMs / 1000), intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    if (this.#growing) {
      this.#growing = false;
      this.grow(false);
    }
  }

  /** Takes the requests counted since the last sample, `seconds` ago. */
  sample(seconds: number): void {
    const rate = (this.#requests - this.#sampled) / seconds;
    this.#sampled = this.#requests;
    const { busyPerSecond, busyForSeconds, quietPerSecond, quietForSeconds } = this.thresholds;
    if (!this.#growing) {
      this.#busyFor = rate >= busyPerSecond ? this.#busyFor + seconds : 0;
      if (this.#busyFor < busyForSeconds) return;
      this.#growing = true;
      this.#quietFor = 0;
      this.grow(true);
    } else {
      this.#quietFor = rate < quietPerSecond ? this.#quietFor + seconds : 0;
      if (this.#quietFor < quietForSeconds) return;
      this.#growing = false;
      this.#busyFor = 0;
      this.grow(false);
    }
  }
}

let processWide: YoungGenerationFollowsLoad | undefined;

/**
 * The process's follower, started, with the function that counts one gateway request; undefined unless the heap is
 * kept small. One per process, as V8's flags are: every gateway of the process counts into it.
 */
export function followGatewayLoad(): (() => void) | undefined {
  if (!isHeapKeptSmall()) return undefined;
  const follower = (processWide ??= new YoungGenerationFollowsLoad());
  follower.start();
  return () => follower.countRequest();
}
