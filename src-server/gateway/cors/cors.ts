import type { PassthroughEntry } from '../../core/model/config-model.js';

/**
 * CORS of one passthrough entry, answered at the gateway. Allowed origins are exact origins, `*`, or wildcard
 * subdomains (`https://*.example.com`: any subdomain at any depth, same scheme and port, not the bare domain).
 */
export interface CorsRules {
  exact: ReadonlySet<string>;
  anyOrigin: boolean;
  wildcards: readonly { scheme: string; suffix: string; port: string }[];
  allowCredentials: boolean;
  maxAgeSeconds: number;
  /** `Access-Control-Expose-Headers`, or undefined when the entry exposes none. */
  exposeHeaders: string | undefined;
  /** Origin → response headers, for the few origins an entry really sees. */
  responseHeaders: Map<string, CorsHeaders>;
}

export type CorsHeaders = readonly (readonly [name: string, value: string])[];

const MAX_CACHED_ORIGINS = 256;
const VARY_ORIGIN: CorsHeaders = [['Vary', 'Origin']];

export function compileCors(cors: PassthroughEntry['cors']): CorsRules | undefined {
  if (!cors.enabled) return undefined;
  const exact = new Set<string>();
  const wildcards: CorsRules['wildcards'][number][] = [];
  let anyOrigin = false;
  for (const allowed of cors.allowedOrigins) {
    const origin = allowed.trim();
    if (origin === '*') anyOrigin = true;
    else if (origin.includes('://*.')) {
      const parsed = parseOrigin(origin.replace('://*.', '://wildcard.'));
      if (parsed)
        wildcards.push({
          scheme: parsed.scheme,
          suffix: parsed.hostname.slice('wildcard'.length),
          port: parsed.port,
        });
    } else {
      const parsed = parseOrigin(origin);
      exact.add(parsed ? parsed.serialized : origin.toLowerCase());
    }
  }
  return {
    exact,
    anyOrigin,
    wildcards,
    allowCredentials: cors.allowCredentials,
    maxAgeSeconds: cors.maxAgeSeconds,
    exposeHeaders: cors.exposeHeaders.length > 0 ? cors.exposeHeaders.join(', ') : undefined,
    responseHeaders: new Map(),
  };
}

interface ParsedOrigin {
  scheme: string;
  hostname: string;
  port: string;
  serialized: string;
}

const ORIGIN = /^([a-z][a-z0-9+.-]*):\/\/([^/?#@\s]+)$/i;

function parseOrigin(text: string): ParsedOrigin | undefined {
  const match = ORIGIN.exec(text.endsWith('/') ? text.slice(0, -1) : text);
  if (!match) return undefined;
  try {
    const url = new URL(`${match[1]!}://${match[2]!}`);
    return { scheme: url.protocol, hostname: url.hostname, port: url.port, serialized: url.origin };
  } catch (error) {
    if (error instanceof TypeError) return undefined;
    throw error;
  }
}

export type OriginVerdict = { allowed: false } | { allowed: true; allowOrigin: string; credentials: boolean };

/** Whether a request's `Origin` is allowed, and what `Access-Control-Allow-Origin` says to it. */
export function judgeOrigin(rules: CorsRules, origin: string): OriginVerdict {
  const parsed = parseOrigin(origin);
  const normalized = parsed?.serialized ?? origin.toLowerCase();
  if (rules.exact.has(normalized)) {
    return { allowed: true, allowOrigin: origin, credentials: rules.allowCredentials };
  }
  if (parsed && rules.wildcards.some((rule) => matchesWildcard(rule, parsed))) {
    // Only an explicitly listed origin may send credentials.
    return { allowed: true, allowOrigin: origin, credentials: false };
  }
  // `*` never goes with credentials; the browser would refuse the pair anyway.
  if (rules.anyOrigin) return { allowed: true, allowOrigin: '*', credentials: false };
  return { allowed: false };
}

function matchesWildcard(rule: CorsRules['wildcards'][number], origin: ParsedOrigin): boolean {
  return (
    origin.scheme === rule.scheme &&
    origin.port === rule.port &&
    origin.hostname.length > rule.suffix.length &&
    origin.hostname.endsWith(rule.suffix)
  );
}

const HEADER_LIST = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+(?:\s*,\s*[!#$%&'*+\-.^_`|~0-9A-Za-z]+)*$/;

/** The answer to a preflight; `undefined` fields of a disallowed origin mean no CORS headers at all. */
export function preflightHeaders(
  rules: CorsRules,
  origin: string,
  servedMethods: readonly string[],
  requestedHeaders: string | undefined,
): CorsHeaders {
  const verdict = judgeOrigin(rules, origin);
  const headers: [string, string][] = [
    ['Vary', 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers'],
  ];
  if (!verdict.allowed) return headers;
  headers.push(['Access-Control-Allow-Origin', verdict.allowOrigin]);
  if (verdict.credentials) headers.push(['Access-Control-Allow-Credentials', 'true']);
  headers.push(['Access-Control-Allow-Methods', servedMethods.join(', ')]);
  const requested = requestedHeaders?.trim();
  if (requested && HEADER_LIST.test(requested)) headers.push(['Access-Control-Allow-Headers', requested]);
  headers.push(['Access-Control-Max-Age', String(rules.maxAgeSeconds)]);
  return headers;
}

/** CORS headers of an actual (non-preflight) response. */
export function responseCorsHeaders(rules: CorsRules, origin: string | undefined): CorsHeaders {
  if (origin === undefined) return VARY_ORIGIN;
  let headers = rules.responseHeaders.get(origin);
  if (headers) return headers;
  const verdict = judgeOrigin(rules, origin);
  if (!verdict.allowed) headers = VARY_ORIGIN;
  else {
    headers = [
      ['Access-Control-Allow-Origin', verdict.allowOrigin],
      ['Vary', 'Origin'],
      ...(verdict.credentials ? [['Access-Control-Allow-Credentials', 'true'] as const] : []),
      ...(rules.exposeHeaders ? [['Access-Control-Expose-Headers', rules.exposeHeaders] as const] : []),
    ];
  }
  if (rules.responseHeaders.size >= MAX_CACHED_ORIGINS) rules.responseHeaders.clear();
  rules.responseHeaders.set(origin, headers);
  return headers;
}

export function isCorsResponseHeader(lowerName: string): boolean {
  return lowerName.startsWith('access-control-');
}
