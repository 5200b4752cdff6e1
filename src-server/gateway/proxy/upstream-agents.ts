import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { rootCertificates } from 'node:tls';
import type { PassthroughEntry } from '../../core/model/config-model.js';

const MAX_FREE_SOCKETS = 256;
const MAX_CUSTOM_AGENTS = 64;

const KEEP_ALIVE = {
  keepAlive: true,
  keepAliveMsecs: 1_000,
  maxFreeSockets: MAX_FREE_SOCKETS,
  // Most recently used first: under light load the oldest idle connections are left to the target to close.
  scheduling: 'lifo' as const,
};

/**
 * Keep-alive connection pools to targets: one for http, one for https with certificate verification, and one
 * per distinct TLS setting of an entry (an extra CA, or verification off), created on first use and kept.
 */
export class UpstreamAgents {
  readonly http = new HttpAgent(KEEP_ALIVE);
  readonly https = new HttpsAgent({ ...KEEP_ALIVE, rejectUnauthorized: true });
  readonly #custom = new Map<string, HttpsAgent>();

  for(protocol: string, tls: PassthroughEntry['tls']): HttpAgent {
    if (protocol === 'http:') return this.http;
    if (tls.verify && !tls.caCertificate) return this.https;
    const key = `${tls.verify ? 'verify' : 'no-verify'}\u0000${tls.caCertificate ?? ''}`;
    let agent = this.#custom.get(key);
    if (!agent) {
      if (this.#custom.size >= MAX_CUSTOM_AGENTS) this.#custom.delete(this.#custom.keys().next().value!);
      agent = new HttpsAgent({
        ...KEEP_ALIVE,
        rejectUnauthorized: tls.verify,
        // An extra CA adds to the usual roots instead of replacing them.
        ...(tls.caCertificate ? { ca: [...rootCertificates, tls.caCertificate] } : {}),
      });
      this.#custom.set(key, agent);
    }
    return agent;
  }

  destroy(): void {
    this.http.destroy();
    this.https.destroy();
    for (const agent of this.#custom.values()) agent.destroy();
    this.#custom.clear();
  }
}
