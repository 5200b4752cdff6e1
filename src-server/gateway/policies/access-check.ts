import type { IncomingHeaders } from '../../core/passthrough/forwarding/index.js';
import { queryParameter } from '../../core/passthrough/forwarding/index.js';
import type { ApiKeyRecord, PolicyGrant, PolicyRecord } from '../../core/model/config-model.js';
import { isExpired, type ApiKeyIndex } from './api-key-index.js';
import { judgeGrant, type JwtVerifier, type TokenVerification } from './jwt-verifier.js';
import type { PolicyTable } from './policy-table.js';
import { ErrorCode } from '../../core/contracts/error-codes.js';

export const DEFAULT_API_KEY_HEADER = 'X-API-Key';
const DEFAULT_API_KEY_HEADER_LOWER = DEFAULT_API_KEY_HEADER.toLowerCase();
const CONSUMED_DEFAULT_HEADER: CredentialLocation = Object.freeze({ header: DEFAULT_API_KEY_HEADER_LOWER });

type ApiKeyGrant = Extract<PolicyGrant, { type: 'apiKey' }>;
type JwtGrant = Extract<PolicyGrant, { type: 'jwt' }>;

export interface AccessRequest {
  method: string;
  decodedSegments: readonly string[];
  headers: IncomingHeaders;
  query: string;
  clientIp: string;
  now: Date;
}

export interface AccessContext {
  policies: PolicyTable;
  apiKeys: ApiKeyIndex;
  jwt: JwtVerifier;
  realm: string;
}

/** Where the credential that was used travelled; the gateway takes it out before forwarding. */
export interface CredentialLocation {
  header?: string;
  query?: string;
}

export type AccessResult =
  | {
      granted: true;
      policy: PolicyRecord;
      /** For monitoring: `public`, `apiKey:<prefix>`, `jwt:<sub>`. */
      identity: string;
      /** Who the throttle counts: the key, the token's subject, or the client address for public access. */
      throttleIdentity: string;
      consumed: CredentialLocation;
    }
  | { granted: false; code: AccessRefusalCode; detail: string; challenge?: string; identity?: string };

/** Why a request may not pass (the codes decide 401, 403 or 503). */
export type AccessRefusalCode =
  | typeof ErrorCode.GH_ERR_NO_POLICY
  | typeof ErrorCode.GH_ERR_UNAUTHENTICATED
  | typeof ErrorCode.GH_ERR_INVALID_CREDENTIALS
  | typeof ErrorCode.GH_ERR_API_KEY_EXPIRED
  | typeof ErrorCode.GH_ERR_FORBIDDEN
  | typeof ErrorCode.GH_ERR_ISSUER_UNAVAILABLE;

/** Token verifications by issuer, done before the (synchronous) decision. */
type TokenVerifications = ReadonlyMap<string, TokenVerification>;
const NO_TOKEN: TokenVerifications = new Map();

/**
 * Decides whether a request may pass. No policy of the group covering the endpoint means no access (401): there
 * is no implicit public access. A known identity that no applicable policy grants gets 403. Synchronous unless
 * a bearer token must be verified against a `jwt` grant's issuer.
 */
export function checkAccess(
  context: AccessContext,
  request: AccessRequest,
): AccessResult | Promise<AccessResult> {
  const applicable = context.policies.applicable(request.method, request.decodedSegments);
  const token = bearerToken(request.headers.authorization);
  const issuers = token === undefined ? [] : jwtIssuers(context.policies.all);
  if (token === undefined || issuers.length === 0) return decide(context, request, applicable, NO_TOKEN);
  return Promise.all(issuers.map((issuer) => context.jwt.verify(token, issuer))).then((results) =>
    decide(context, request, applicable, new Map(issuers.map((issuer, index) => [issuer, results[index]!]))),
  );
}

function decide(
  context: AccessContext,
  request: AccessRequest,
  applicable: readonly PolicyRecord[],
  tokens: TokenVerifications,
): AccessResult {
  const attempt = new Attempt(context, request, tokens);
  for (const policy of applicable) {
    const granted = attempt.tryPolicy(policy);
    if (granted) return granted;
  }
  const open = applicable.find((policy) => policy.grants.some((grant) => grant.type === 'public'));
  if (open) {
    return {
      granted: true,
      policy: open,
      identity: 'public',
      throttleIdentity: `public:${request.clientIp}`,
      consumed: {},
    };
  }
  // Only to tell 403 from 401: is the caller known to another policy of the group?
  for (const policy of context.policies.all) {
    if (attempt.knownIdentity !== undefined) break;
    if (!applicable.includes(policy)) attempt.tryPolicy(policy);
  }
  return attempt.refusal(applicable);
}

class Attempt {
  knownIdentity: string | undefined;
  expiredKey = false;
  invalidCredential = false;
  issuerUnavailable = false;

  constructor(
    private readonly context: AccessContext,
    private readonly request: AccessRequest,
    private readonly tokens: TokenVerifications,
  ) {}

  tryPolicy(policy: PolicyRecord): AccessResult | undefined {
    for (const grant of policy.grants) {
      const granted =
        grant.type === 'apiKey'
          ? this.#tryApiKey(policy, grant)
          : grant.type === 'jwt'
            ? this.#tryJwt(policy, grant)
            : undefined;
      if (granted) return granted;
    }
    return undefined;
  }

  refusal(applicable: readonly PolicyRecord[]): AccessResult {
    if (this.knownIdentity) {
      return {
        granted: false,
        code: ErrorCode.GH_ERR_FORBIDDEN,
        detail: 'The caller is known but no API policy grants it this endpoint.',
        identity: this.knownIdentity,
      };
    }
    if (this.issuerUnavailable) {
      return {
        granted: false,
        code: ErrorCode.GH_ERR_ISSUER_UNAVAILABLE,
        detail: "The token issuer's signing keys could not be retrieved.",
      };
    }
    const challenge = challengeFor(applicable, this.context.realm, this.invalidCredential || this.expiredKey);
    if (this.expiredKey)
      return {
        granted: false,
        code: ErrorCode.GH_ERR_API_KEY_EXPIRED,
        detail: 'The API key has expired.',
        challenge,
      };
    if (this.invalidCredential) {
      return {
        granted: false,
        code: ErrorCode.GH_ERR_INVALID_CREDENTIALS,
        detail: 'The credentials are not valid for this endpoint.',
        challenge,
      };
    }
    if (applicable.length === 0) {
      const detail = 'No API policy grants access to this endpoint.';
      return { granted: false, code: ErrorCode.GH_ERR_NO_POLICY, detail, challenge };
    }
    const detail = 'This endpoint requires credentials.';
    return { granted: false, code: ErrorCode.GH_ERR_UNAUTHENTICATED, detail, challenge };
  }

  #tryApiKey(policy: PolicyRecord, grant: ApiKeyGrant): AccessResult | undefined {
    const headerName =
      grant.headerName === undefined ? DEFAULT_API_KEY_HEADER_LOWER : grant.headerName.toLowerCase();
    const fromHeader = firstValue(this.request.headers[headerName]);
    const fromQuery =
      fromHeader === undefined && grant.queryName
        ? queryParameter(this.request.query, grant.queryName)
        : undefined;
    const presented = fromHeader ?? fromQuery;
    if (presented === undefined || presented === '') return undefined;
    const key = this.context.apiKeys.lookup(presented);
    if (!key) {
      this.invalidCredential = true;
      return undefined;
    }
    if (isExpired(key, this.request.now)) {
      this.expiredKey = true;
      return undefined;
    }
    if (!keyServesPolicy(key.record, policy)) {
      this.knownIdentity ??= key.identity;
      return undefined;
    }
    return {
      granted: true,
      policy,
      identity: key.identity,
      throttleIdentity: key.throttleIdentity,
      consumed:
        fromHeader === undefined
          ? { query: grant.queryName }
          : headerName === DEFAULT_API_KEY_HEADER_LOWER
            ? CONSUMED_DEFAULT_HEADER
            : { header: headerName },
    };
  }

  #tryJwt(policy: PolicyRecord, grant: JwtGrant): AccessResult | undefined {
    const verification = this.tokens.get(grant.issuer);
    if (!verification) return undefined;
    if (!verification.ok) {
      if (verification.reason === 'unavailable') this.issuerUnavailable = true;
      else this.invalidCredential = true;
      return undefined;
    }
    const judgement = judgeGrant(verification.payload, grant);
    if (!judgement.ok) {
      // A wrong audience is a token for someone else (401); failing claim rules, a known caller not granted.
      if (judgement.reason === 'unauthorized') this.knownIdentity ??= `jwt:${verification.payload.sub ?? ''}`;
      else this.invalidCredential = true;
      return undefined;
    }
    const identity = `jwt:${judgement.subject}`;
    // The Authorization header stays: the target may want the token too (a header entry can remove it).
    return { granted: true, policy, identity, throttleIdentity: identity, consumed: {} };
  }
}

function jwtIssuers(policies: readonly PolicyRecord[]): string[] {
  const issuers = new Set<string>();
  for (const policy of policies)
    for (const grant of policy.grants) if (grant.type === 'jwt') issuers.add(grant.issuer);
  return [...issuers];
}

function keyServesPolicy(record: ApiKeyRecord, policy: PolicyRecord): boolean {
  return record.policyIds.length === 0 || record.policyIds.includes(policy.id);
}

/** Header objects inherit from Object: only own string values count (a header named `constructor`…). */
function firstValue(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  return Array.isArray(value) && typeof value[0] === 'string' ? value[0] : undefined;
}

function bearerToken(value: string | string[] | undefined): string | undefined {
  const header = firstValue(value);
  if (header === undefined || header.length < 8 || header.slice(0, 7).toLowerCase() !== 'bearer ')
    return undefined;
  const token = header.slice(7).trim();
  return token === '' ? undefined : token;
}

function challengeFor(policies: readonly PolicyRecord[], realm: string, invalid: boolean): string {
  const quoted = (text: string) => `"${text.replace(/["\\\r\n]/g, '')}"`;
  const challenges = new Set<string>();
  for (const policy of policies) {
    for (const grant of policy.grants) {
      if (grant.type === 'jwt') {
        challenges.add(`Bearer realm=${quoted(realm)}${invalid ? ', error="invalid_token"' : ''}`);
      } else if (grant.type === 'apiKey') {
        const where =
          grant.queryName && !grant.headerName
            ? `query=${quoted(grant.queryName)}`
            : `header=${quoted(grant.headerName ?? DEFAULT_API_KEY_HEADER)}`;
        challenges.add(`ApiKey realm=${quoted(realm)}, ${where}`);
      }
    }
  }
  if (challenges.size === 0) challenges.add(`Bearer realm=${quoted(realm)}`);
  return [...challenges].join(', ');
}
