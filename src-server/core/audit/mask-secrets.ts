import { SECRET_MASK as MASK } from '../contracts/constants.js';

export { MASK };

const SECRET_WORDS =
  'secret|ticket|password|passwd|pwd|apikey|api_key|api-key|privatekey|private_key|credential|signature';
/** Property names whose values are secrets wherever they appear. */
const SECRET_KEY = new RegExp(`(${SECRET_WORDS}|token)`, 'i');
/** The same without `token`: a token endpoint named with another secret word stays masked. */
const SECRET_KEY_BUT_TOKEN = new RegExp(`(${SECRET_WORDS})`, 'i');

/**
 * Where a token is obtained (`tokenEndpoint`, `token_url`, …): an address, not a token. Its value is kept when it
 * is an http(s) URL, with any credential in it masked; any other value is masked like a secret.
 */
const TOKEN_ADDRESS_KEY = /token[-_]?(endpoint|url|uri)$/i;

function maskedTokenAddress(key: string, value: unknown): string | undefined {
  if (!TOKEN_ADDRESS_KEY.test(key) || SECRET_KEY_BUT_TOKEN.test(key) || typeof value !== 'string')
    return undefined;
  if (!URL.canParse(value)) return undefined;
  const url = new URL(value);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  if (url.username || url.password) {
    url.username = MASK;
    url.password = '';
  }
  url.hash = '';
  return maskCredentialQuery(url.href);
}

/** Header names whose values carry credentials. */
const CREDENTIAL_HEADER =
  /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key|api-key|apikey|ocp-apim-subscription-key|x-functions-key|x-auth-token)$|(token|secret|key|password|signature)/i;

export function isCredentialHeader(name: string): boolean {
  return CREDENTIAL_HEADER.test(name.trim());
}

/**
 * `/a?api_key=abc&x=1` → `/a?api_key=********&x=1`: the values of query parameters whose names look like
 * credentials (`api_key`, `access_token`, `token`, `sig`, … the header rule) or that are in `extraNames` (lower-case:
 * the names API-key policies read keys from). A target or path without a query is returned as it is.
 */
export function maskCredentialQuery(target: string, extraNames: ReadonlySet<string> = NO_NAMES): string {
  const queryStart = target.indexOf('?');
  if (queryStart === -1) return target;
  const pairs = target.slice(queryStart + 1).split('&');
  let changed = false;
  for (let index = 0; index < pairs.length; index++) {
    const pair = pairs[index]!;
    const equals = pair.indexOf('=');
    if (equals === -1) continue;
    const name = decodeQueryName(pair.slice(0, equals));
    if (isCredentialQueryName(name) || extraNames.has(name.toLowerCase())) {
      pairs[index] = `${pair.slice(0, equals)}=${MASK}`;
      changed = true;
    }
  }
  return changed ? `${target.slice(0, queryStart)}?${pairs.join('&')}` : target;
}

const NO_NAMES: ReadonlySet<string> = new Set();

/** Query names that carry credentials: the header rule, plus the short names signed URLs use. */
const CREDENTIAL_QUERY =
  /^(sig|auth|jwt|code|sid|session|sessionid|session_id|sessid|phpsessid|jsessionid|pass|passwd|pwd|credentials?)$/i;

function isCredentialQueryName(name: string): boolean {
  return isCredentialHeader(name) || CREDENTIAL_QUERY.test(name.trim());
}

function decodeQueryName(raw: string): string {
  if (!raw.includes('%') && !raw.includes('+')) return raw;
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch (error) {
    if (error instanceof URIError) return raw;
    throw error;
  }
}

/** `scheme://` then an authority: where a URL can carry a password (`user:pw@`) and credential query values. */
const URL_WITH_AUTHORITY = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s]*$/;

/**
 * `https://user:pw@host/p?api_key=k` → `https://user:********@host/p?api_key=********`: the password of a URL's
 * user information and its credential-like query values, in any string that is a whole URL (a source's base URL,
 * a connection string under a name that is no secret word). Anything else is returned as it is.
 */
export function maskUrlCredentials(text: string): string {
  if (!URL_WITH_AUTHORITY.test(text)) return text;
  const authorityStart = text.indexOf('//') + 2;
  const authorityEnd = text.slice(authorityStart).search(/[/?#]/);
  const authority =
    authorityEnd === -1
      ? text.slice(authorityStart)
      : text.slice(authorityStart, authorityStart + authorityEnd);
  const at = authority.lastIndexOf('@');
  const colon = at === -1 ? -1 : authority.slice(0, at).indexOf(':');
  const maskedAuthority =
    colon === -1 ? authority : `${authority.slice(0, colon + 1)}${MASK}${authority.slice(at)}`;
  const rest = text.slice(authorityStart + authority.length);
  const hash = rest.indexOf('#');
  // A fragment can carry credentials too (`#access_token=…` of an implicit-flow redirect).
  const maskedRest =
    hash === -1
      ? maskCredentialQuery(rest)
      : `${maskCredentialQuery(rest.slice(0, hash))}#${maskCredentialQuery(`?${rest.slice(hash + 1)}`).slice(1)}`;
  return `${text.slice(0, authorityStart)}${maskedAuthority}${maskedRest}`;
}

/**
 * Returns a copy with secrets replaced by `********`: values under secret-looking keys (a token endpoint's URL
 * stays readable, its credentials masked), `value` of objects that
 * declare themselves secret (`type: "secret"` or `secret: true`), and `value` of header entries whose `name` is a
 * credential header. Depth- and size-bounded so a hostile body can't make it expensive.
 */
export function maskSecrets(value: unknown, depth = 0): unknown {
  if (depth > 32) return '[truncated]';
  if (typeof value === 'string') return maskUrlCredentials(value);
  if (Array.isArray(value)) return value.slice(0, 1000).map((item) => maskSecrets(item, depth + 1));
  if (!value || typeof value !== 'object') return value;
  const source = value as Record<string, unknown>;
  const declaresSecret =
    source.type === 'secret' ||
    source.secret === true ||
    (typeof source.name === 'string' && 'value' in source && isCredentialHeader(source.name));
  const masked: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(source)) {
    const tokenAddress = maskedTokenAddress(key, child);
    if (key === 'value' && declaresSecret && child !== undefined && child !== null) masked[key] = MASK;
    else if (tokenAddress !== undefined) masked[key] = tokenAddress;
    else if (
      SECRET_KEY.test(key) &&
      child !== null &&
      child !== undefined &&
      typeof child !== 'boolean' &&
      typeof child !== 'object'
    ) {
      masked[key] = MASK;
    } else masked[key] = maskSecrets(child, depth + 1);
  }
  return masked;
}

export function maskParameters(parameters: Record<string, unknown>): Record<string, unknown> {
  return maskSecrets(parameters) as Record<string, unknown>;
}
