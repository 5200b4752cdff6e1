import { createRemoteJWKSet, type JWTVerifyGetKey } from 'jose';

export interface ExternalProviderConfig {
  /** Issuer URL; its `/.well-known/openid-configuration` is read. */
  authority: string;
  audience: string;
  /** Minimum time between JWKS refetches triggered by an unknown `kid`. */
  keyRefreshCooldownMs: number;
}

interface Discovered {
  issuer: string;
  keys: JWTVerifyGetKey;
  /** Where the console signs in (authorization code with PKCE), when the provider names them. */
  authorizationEndpoint?: string;
  tokenEndpoint?: string;
  fetchedAt: number;
}

const DISCOVERY_TTL_MS = 60 * 60 * 1000;
const FETCH_TIMEOUT_MS = 5_000;

/** Validates that an authority is https, or http on a loopback host (for local test providers). */
export function checkAuthorityUrl(authority: string): string | undefined {
  let url: URL;
  try {
    url = new URL(authority);
  } catch {
    return 'The authority must be an absolute URL.';
  }
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    return 'The authority must use https (http is accepted only on a loopback host).';
  }
  return undefined;
}

/**
 * An external OpenID Connect provider: its discovery document and JWKS are fetched on first use and cached
 * (the JWKS by jose, which also refetches on an unknown `kid`).
 */
export class ExternalProvider {
  #discovered?: Discovered;
  #pending?: Promise<Discovered>;

  constructor(readonly config: ExternalProviderConfig) {}

  /** The issuer as the authority names it, before discovery (for routing a token to this provider). */
  get expectedIssuer(): string {
    return this.config.authority.replace(/\/+$/, '');
  }

  matchesIssuer(issuer: string): boolean {
    return issuer.replace(/\/+$/, '') === this.expectedIssuer;
  }

  async discover(): Promise<Discovered> {
    if (this.#discovered && Date.now() - this.#discovered.fetchedAt < DISCOVERY_TTL_MS)
      return this.#discovered;
    this.#pending ??= this.#fetchDiscovery().finally(() => {
      this.#pending = undefined;
    });
    this.#discovered = await this.#pending;
    return this.#discovered;
  }

  async #fetchDiscovery(): Promise<Discovered> {
    const url = `${this.expectedIssuer}/.well-known/openid-configuration`;
    const response = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: 'error' });
    if (!response.ok) throw new Error(`discovery document answered ${response.status}`);
    const document = (await response.json()) as {
      issuer?: unknown;
      jwks_uri?: unknown;
      authorization_endpoint?: unknown;
      token_endpoint?: unknown;
    };
    if (typeof document.issuer !== 'string' || typeof document.jwks_uri !== 'string') {
      throw new Error('discovery document lacks issuer or jwks_uri');
    }
    if (!this.matchesIssuer(document.issuer)) throw new Error('discovery document names another issuer');
    const keys = createRemoteJWKSet(new URL(document.jwks_uri), {
      timeoutDuration: FETCH_TIMEOUT_MS,
      cooldownDuration: this.config.keyRefreshCooldownMs,
      cacheMaxAge: 10 * 60_000,
    });
    const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
    return {
      issuer: document.issuer,
      keys,
      authorizationEndpoint: text(document.authorization_endpoint),
      tokenEndpoint: text(document.token_endpoint),
      fetchedAt: Date.now(),
    };
  }
}
