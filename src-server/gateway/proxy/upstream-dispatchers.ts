import type { Agent } from 'undici';
import type { PassthroughEntry } from '../../core/model/config-model.js';

const MAX_CUSTOM_AGENTS = 64;

/**
 * undici's own timers (connect included) are off: the gateway's deadline sweep enforces the entry's connect and response timeouts
 * (one timer for all requests). Connections stay open while idle for 4 s, or the target's `Keep-Alive: timeout`
 * hint less a margin, so a request rarely meets a connection the target is closing.
 */
const POOL_OPTIONS = {
  headersTimeout: 0,
  bodyTimeout: 0,
  keepAliveTimeout: 4_000,
  keepAliveMaxTimeout: 60_000,
  connect: { timeout: 0 },
} as const;

type AgentClass = typeof Agent;

/**
 * Keep-alive connection pools to targets (undici agents: one pool per origin): one agent for plain http and https
 * with certificate verification, and one per distinct TLS setting of an entry (an extra CA, or verification off),
 * created on first use and kept.
 *
 * undici itself (~730 kB of bundled code, ~40 ms of CPU to load) is imported on the first forwarded request, not at
 * start: a `gatehouse serve` that only answers the Control Panel never loads it. A gateway with passthroughs loads
 * it a moment after the start (`warmUpSoon`), so its first request does not wait for it either. Until `load()` has
 * resolved, `for()` answers undefined and the caller waits for it.
 */
export class UpstreamDispatchers {
  #Agent: AgentClass | undefined = undefined;
  #loading: Promise<void> | undefined = undefined;
  #default: Agent | undefined = undefined;
  readonly #custom = new Map<string, Agent>();
  #warmUp: NodeJS.Timeout | undefined = undefined;

  /** Loads undici after `delayMs` (off the start's path) unless it is loaded or loading by then. */
  warmUpSoon(delayMs: number): void {
    if (this.#loading || this.#warmUp) return;
    this.#warmUp = setTimeout(() => {
      // A failed import is reported by the first forwarded request, which waits for this same promise.
      this.load().catch(() => undefined);
    }, delayMs);
    this.#warmUp.unref();
  }

  /** Imports undici once; later calls share the first import. */
  load(): Promise<void> {
    // undici is CommonJS: bundled (out/server), import() gives its exports as `default` only (as Node's loader also does).
    this.#loading ??= import('undici').then(({ default: { Agent } }) => {
      this.#Agent = Agent;
      this.#default = new Agent(POOL_OPTIONS);
    });
    return this.#loading;
  }

  /** The agent for a target, or undefined while undici is not loaded yet (see `load()`). */
  for(protocol: string, tls: PassthroughEntry['tls']): Agent | undefined {
    const Agent = this.#Agent;
    if (Agent === undefined) return undefined;
    if (protocol === 'http:' || (tls.verify && !tls.caCertificate)) return this.#default;
    const key = `${tls.verify ? 'verify' : 'no-verify'}\u0000${tls.caCertificate ?? ''}`;
    let agent = this.#custom.get(key);
    if (!agent) {
      if (this.#custom.size >= MAX_CUSTOM_AGENTS) {
        const [oldest, evicted] = this.#custom.entries().next().value!;
        this.#custom.delete(oldest);
        void evicted.close();
      }
      agent = new Agent({
        ...POOL_OPTIONS,
        connect: {
          timeout: 0,
          rejectUnauthorized: tls.verify,
          // An extra CA adds to the usual roots instead of replacing them. node:tls loaded with undici: an import
          // of it here loaded it (~4 ms of CPU) at every start of the server.
          ...(tls.caCertificate
            ? { ca: [...process.getBuiltinModule('node:tls').rootCertificates, tls.caCertificate] }
            : {}),
        },
      });
      this.#custom.set(key, agent);
    }
    return agent;
  }

  async destroy(): Promise<void> {
    clearTimeout(this.#warmUp);
    // An import under way still creates its default agent: it is destroyed with the rest.
    if (this.#loading) await this.#loading.catch(() => undefined);
    const agents = [...(this.#default ? [this.#default] : []), ...this.#custom.values()];
    this.#custom.clear();
    await Promise.all(agents.map((agent) => agent.destroy()));
  }
}
