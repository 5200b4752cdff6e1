import { Agent, request } from 'node:http';

/** One request at a time on a keep-alive connection, timing each, until stopped. */
export class Prober {
  readonly #agent = new Agent({ keepAlive: true, maxSockets: 1 });
  #running = false;

  constructor(
    private readonly port: number,
    private readonly path: string,
  ) {}

  once(): Promise<{ status: number; ms: number }> {
    const begin = performance.now();
    return new Promise((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: this.port, path: this.path, agent: this.#agent },
        (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - begin }));
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  async run(): Promise<number[]> {
    this.#running = true;
    const latencies: number[] = [];
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- stop() clears it while the loop awaits
    while (this.#running) {
      latencies.push((await this.once()).ms);
      await sleep(5);
    }
    return latencies;
  }

  stop(): void {
    this.#running = false;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
