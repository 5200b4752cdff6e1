import { errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import type { Logger } from 'pino';
import { ExternalProvider } from '../../core/oidc/external-provider.js';
import type { PolicyGrant } from '../../core/model/config-model.js';

type JwtGrant = Extract<PolicyGrant, { type: 'jwt' }>;

/** A token checked against one issuer: its claims, or why it is not (yet) trusted. */
export type TokenVerification =
  | { ok: true; payload: JWTPayload }
  /** `invalid`: not signed by the issuer, expired or malformed; `unavailable`: the issuer's keys are out of reach. */
  | { ok: false; reason: 'invalid' | 'unavailable' };

/** What one `jwt` grant makes of a verified token. */
export type GrantJudgement =
  { ok: true; subject: string } | { ok: false; reason: 'audience' | 'unauthorized' };

const MAX_ISSUERS = 64;
const FAILURE_COOLDOWN_MS = 10_000;
const KEY_REFRESH_COOLDOWN_MS = 30_000;
const CLOCK_TOLERANCE_SECONDS = 30;

/**
 * Verifies bearer tokens for `jwt` grants: the issuer's discovery document and JWKS are fetched once and
 * cached (per issuer, across configuration changes); an unknown `kid` refetches the JWKS at most every 30 s.
 */
export class JwtVerifier {
  readonly #providers = new Map<string, { provider: ExternalProvider; failedAt?: number }>();

  constructor(private readonly logger: Logger) {}

  /** Checks signature, issuer and lifetime; audience and claim rules are each grant's business. */
  async verify(token: string, issuerUrl: string): Promise<TokenVerification> {
    const issuer = this.#providerFor(issuerUrl);
    if (issuer.failedAt !== undefined && Date.now() - issuer.failedAt < FAILURE_COOLDOWN_MS) {
      return { ok: false, reason: 'unavailable' };
    }
    let discovered;
    try {
      discovered = await issuer.provider.discover();
      issuer.failedAt = undefined;
    } catch (error) {
      issuer.failedAt = Date.now();
      this.logger.warn({ err: error, issuer: issuerUrl }, 'token issuer discovery failed');
      return { ok: false, reason: 'unavailable' };
    }
    try {
      const { payload } = await jwtVerify(token, discovered.keys, {
        issuer: discovered.issuer,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
      });
      return { ok: true, payload };
    } catch (error) {
      if (error instanceof joseErrors.JOSEError && !(error instanceof joseErrors.JWKSTimeout)) {
        return { ok: false, reason: 'invalid' };
      }
      this.logger.warn({ err: error, issuer: issuerUrl }, "the token issuer's keys could not be fetched");
      return { ok: false, reason: 'unavailable' };
    }
  }

  #providerFor(issuerUrl: string): { provider: ExternalProvider; failedAt?: number } {
    const key = issuerUrl.replace(/\/+$/, '');
    let entry = this.#providers.get(key);
    if (!entry) {
      if (this.#providers.size >= MAX_ISSUERS) this.#providers.delete(this.#providers.keys().next().value!);
      entry = {
        provider: new ExternalProvider({
          authority: key,
          audience: '',
          keyRefreshCooldownMs: KEY_REFRESH_COOLDOWN_MS,
        }),
      };
      this.#providers.set(key, entry);
    }
    return entry;
  }
}

export function judgeGrant(payload: JWTPayload, grant: JwtGrant): GrantJudgement {
  if (!hasAudience(payload, grant.audience)) return { ok: false, reason: 'audience' };
  if (!grant.claims.every((rule) => claimContains(payload, rule.claim, rule.values))) {
    return { ok: false, reason: 'unauthorized' };
  }
  return { ok: true, subject: typeof payload.sub === 'string' ? payload.sub : 'unknown' };
}

function hasAudience(payload: JWTPayload, audience: string): boolean {
  if (audience === '') return true;
  const claimed = payload.aud;
  return Array.isArray(claimed) ? claimed.includes(audience) : claimed === audience;
}

/** A string claim counts as a space-separated list (`scope`); a dotted name reaches into objects. */
function claimContains(payload: JWTPayload, claim: string, values: readonly string[]): boolean {
  const value = claimValue(payload, claim);
  const held =
    typeof value === 'string'
      ? value.split(/\s+/)
      : Array.isArray(value)
        ? value.filter((item): item is string => typeof item === 'string')
        : typeof value === 'number' || typeof value === 'boolean'
          ? [String(value)]
          : [];
  return values.some((wanted) => held.includes(wanted));
}

function claimValue(payload: JWTPayload, claim: string): unknown {
  if (Object.hasOwn(payload, claim)) return payload[claim];
  let current: unknown = payload;
  for (const part of claim.split('.')) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, part)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}
