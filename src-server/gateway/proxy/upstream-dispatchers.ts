import { rootCertificates } from 'node:tls';
import { Agent } from 'undici';
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

/**
 * Keep-alive connection pools to targets (undici agents: one pool per origin): one agent for plain http and https
 * with certificate verification, and one per distinct TLS setting of an entry (an extra CA, or verification off),
 * created on first use and kept.
 */
export class UpstreamDispatchers {
  readonly #default = new Agent(POOL_OPTIONS);
  readonly #custom = new Map<string, Agent>();

  for(protocol: string, tls: PassthroughEntry['tls']): Agent {
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
          // An extra CA adds to the usual roots instead of replacing them.
          ...(tls.caCertificate ? { ca: [...rootCertificates, tls.caCertificate] } : {}),
        },
      });
      this.#custom.set(key, agent);
    }
    return agent;
  }

  async destroy(): Promise<void> {
    const agents = [this.#default, ...this.#custom.values()];
    this.#custom.clear();
    await Promise.all(agents.map((agent) => agent.destroy()));
  }
}
