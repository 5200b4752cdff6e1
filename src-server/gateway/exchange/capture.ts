import type { IncomingMessage } from 'node:http';
import { MASK, isCredentialHeader, maskCredentialQuery, maskSecrets } from '../../core/audit/mask-secrets.js';
import type { CapturedBody, CapturedExchange } from '../../core/contracts/monitoring-capture-schemas.js';

/** How one API's exchanges are captured in one agent group (its environment's secrets are masked). */
export interface CaptureRules {
  maxBodyBytes: number;
  /** Lower-case header names API-key policies read keys from (besides the credential-like ones). */
  credentialHeaders: ReadonlySet<string>;
  /** Lower-case query names API-key policies read keys from. */
  credentialQuery: ReadonlySet<string>;
  /** Masks the environment's secret values and the API's literal credential header values in any text. */
  redact: (text: string) => string;
}

/** Headers kept per direction, and characters per header value: a hostile peer can't grow a record. */
const MAX_HEADERS = 200;
const MAX_HEADER_VALUE = 8192;

/** The first `limit` bytes of a body as it streams by, and its whole size. */
export class BodyTap {
  readonly #chunks: Buffer[] = [];
  #kept = 0;
  bytes = 0;

  constructor(private readonly limit: number) {}

  add(chunk: Buffer): void {
    this.bytes += chunk.length;
    const room = this.limit - this.#kept;
    if (room <= 0) return;
    const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
    // A copy: the caller may reuse its buffer once the chunk is written.
    this.#chunks.push(Buffer.from(part));
    this.#kept += part.length;
  }

  kept(): Buffer {
    return Buffer.concat(this.#chunks, this.#kept);
  }
}

/**
 * What went over the wire between a caller and the gateway for one request of an API that captures exchanges:
 * the request as received, the response as sent. Bodies are tapped as they stream (never buffered whole); the
 * masking happens once, when the record is made.
 */
export class ExchangeCapture {
  readonly requestBody: BodyTap;
  readonly responseBody: BodyTap;
  requestBodyRead = false;
  response: { status: number; headers: string[] } | undefined;
  #redact: (text: string) => string;

  constructor(
    private readonly rules: CaptureRules,
    private readonly req: IncomingMessage,
  ) {
    this.requestBody = new BodyTap(rules.maxBodyBytes);
    this.responseBody = new BodyTap(rules.maxBodyBytes);
    this.#redact = rules.redact;
  }

  /** The response head, as `writeHead` takes its headers: name, value, name, value… */
  respond(status: number, headers: readonly string[]): void {
    this.response = { status, headers: [...headers] };
  }

  finish(): CapturedExchange {
    const { req, rules } = this;
    const bodySecrets = this.requestBodyRead ? secretsInBody(this.requestBody, req.rawHeaders, rules) : [];
    this.#redact = withOwnCredentials(rules, req.rawHeaders, req.url ?? '/', bodySecrets);
    const requestHeaders = this.headers(req.rawHeaders);
    const response = this.response;
    const responseHeaders = response ? this.headers(response.headers) : [];
    return {
      request: {
        method: req.method ?? 'GET',
        target: this.#redact(maskCredentialQuery(req.url ?? '/', rules.credentialQuery)),
        httpVersion: req.httpVersion,
        headers: requestHeaders,
        body: this.requestBodyRead ? this.body(this.requestBody, requestHeaders) : null,
      },
      response: response
        ? {
            status: response.status,
            headers: responseHeaders,
            body: this.responseBody.bytes > 0 ? this.body(this.responseBody, responseHeaders) : null,
          }
        : null,
      maxBodyBytes: rules.maxBodyBytes,
    };
  }

  private headers(flat: readonly string[]): { name: string; value: string }[] {
    const headers: { name: string; value: string }[] = [];
    for (let index = 0; index + 1 < flat.length && headers.length < MAX_HEADERS; index += 2) {
      const name = flat[index]!;
      const value = flat[index + 1]!;
      const secret = isCredentialHeader(name) || this.rules.credentialHeaders.has(name.toLowerCase());
      headers.push({ name, value: secret ? MASK : this.#redact(value.slice(0, MAX_HEADER_VALUE)) });
    }
    return headers;
  }

  private body(tap: BodyTap, headers: readonly { name: string; value: string }[]): CapturedBody {
    const header = (wanted: string) =>
      headers.find(({ name }) => name.toLowerCase() === wanted)?.value.trim();
    const contentType = header('content-type');
    const encoding = header('content-encoding');
    const truncated = tap.bytes > this.rules.maxBodyBytes;
    const summary: CapturedBody = {
      bytes: tap.bytes,
      ...(contentType ? { contentType } : {}),
      binary: true,
      truncated,
    };
    if (encoding && encoding.toLowerCase() !== 'identity') return summary;
    const text = textOf(tap.kept(), contentType, truncated);
    if (text === undefined) return summary;
    return { ...summary, binary: false, text: this.#redact(maskStructured(text, contentType, truncated)) };
  }
}

const TEXT_TYPE =
  /^(text\/|application\/([\w.+-]*\+)?(json|xml|javascript|ecmascript|x-www-form-urlencoded|graphql|yaml|x-yaml|x-ndjson|problem\+json|csv|sql)\b)/i;
const DECLARED_BINARY =
  /^(image|audio|video|font)\/|^application\/(octet-stream|zip|gzip|pdf|x-protobuf|grpc)/i;
/** Control characters other than tab, line feed and carriage return: not text a person reads. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** The kept bytes as text, or undefined for a binary body (declared so, or not valid UTF-8 text). */
export function textOf(
  bytes: Buffer,
  contentType: string | undefined,
  truncated: boolean,
): string | undefined {
  if (contentType && DECLARED_BINARY.test(contentType)) return undefined;
  // A cut can split a character: drop an incomplete sequence at the end of a truncated body.
  const usable = truncated ? bytes.subarray(0, completeUtf8Length(bytes)) : bytes;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(usable);
  } catch (error) {
    if (error instanceof TypeError) return undefined;
    throw error;
  }
  if (contentType && TEXT_TYPE.test(contentType)) return text;
  return CONTROL.test(text) ? undefined : text;
}

function completeUtf8Length(bytes: Buffer): number {
  let end = bytes.length;
  // Walk back over at most 3 continuation bytes to the start of the last character.
  let start = end - 1;
  while (start >= 0 && end - start <= 4 && (bytes[start]! & 0xc0) === 0x80) start--;
  if (start < 0) return end;
  const lead = bytes[start]!;
  const needed = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  if (end - start < needed) end = start;
  return end;
}

/**
 * Property values under secret-looking names in a JSON body, and credential-like values of a form body, masked
 * the way the audit trail masks parameters. A body that needs no masking is kept exactly as it was sent.
 */
function maskStructured(text: string, contentType: string | undefined, truncated: boolean): string {
  if (!contentType) return text;
  if (/json/i.test(contentType)) {
    if (truncated) return maskJsonText(text);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      if (error instanceof SyntaxError) return maskJsonText(text);
      throw error;
    }
    const masked = maskSecrets(parsed);
    return JSON.stringify(masked) === JSON.stringify(parsed) ? text : JSON.stringify(masked, null, 2);
  }
  if (/^application\/x-www-form-urlencoded/i.test(contentType))
    return maskCredentialQuery(`?${text}`).slice(1);
  return text;
}

const SECRET_MEMBER =
  /("[^"\\]*(?:secret|ticket|password|passwd|pwd|token|apikey|api_key|api-key|privatekey|private_key|credential|signature)[^"\\]*"\s*:\s*)("(?:[^"\\]|\\.)*(?:"|\\?$)|-?\d[\d.eE+-]*)/gi;

/**
 * JSON that does not parse (cut at the size limit): string and number values of secret-looking members, a value
 * cut off at the end included.
 */
function maskJsonText(text: string): string {
  return text.replace(SECRET_MEMBER, (_match, member: string) => `${member}"${MASK}"`);
}

/**
 * The values `maskStructured` masks in a request body (a password field, a JSON `client_secret`): a target that
 * echoes the request, or quotes it in an error, sends them back inside a string the response's masking can't see.
 */
function secretsInBody(tap: BodyTap, rawHeaders: readonly string[], rules: CaptureRules): string[] {
  const header = (wanted: string) => {
    for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
      if (rawHeaders[index]!.toLowerCase() === wanted) return rawHeaders[index + 1]!.trim();
    }
    return undefined;
  };
  const contentType = header('content-type');
  const encoding = header('content-encoding');
  if (!contentType || (encoding && encoding.toLowerCase() !== 'identity')) return [];
  const truncated = tap.bytes > rules.maxBodyBytes;
  const text = textOf(tap.kept(), contentType, truncated);
  if (text === undefined) return [];
  if (/^application\/x-www-form-urlencoded/i.test(contentType)) {
    return maskedQueryValues(`?${text}`, NO_NAMES).flatMap((value) => {
      const decoded = decodedOrUndefined(value);
      return decoded === undefined || decoded === value ? [value] : [value, decoded];
    });
  }
  if (!/json/i.test(contentType)) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    return [...text.matchAll(SECRET_MEMBER)].map(([, , value]) => unquoted(value!));
  }
  const found: string[] = [];
  collectMasked(parsed, maskSecrets(parsed), found);
  return found;
}

const NO_NAMES: ReadonlySet<string> = new Set();

function unquoted(value: string): string {
  if (!value.startsWith('"')) return value;
  return value.slice(1, value.endsWith('"') && value.length > 1 ? -1 : undefined);
}

/** The string and number leaves of `original` that are `********` in `masked`. */
function collectMasked(original: unknown, masked: unknown, found: string[], depth = 0): void {
  if (depth > 32) return;
  if (
    masked === MASK &&
    original !== MASK &&
    (typeof original === 'string' || typeof original === 'number')
  ) {
    found.push(String(original));
    return;
  }
  if (!original || typeof original !== 'object' || !masked || typeof masked !== 'object') return;
  for (const [key, child] of Object.entries(original)) {
    collectMasked(child, (masked as Record<string, unknown>)[key], found, depth + 1);
  }
}

/** Shorter values are left alone: masking them would garble unrelated text. */
const MIN_REDACTED_LENGTH = 4;
const LEADING_SCHEME = /^[A-Za-z-]+\s+(?=\S)/;

/**
 * The rules' redaction plus the caller's own credentials (its Authorization, cookies, API keys, the secrets of
 * its body), which an echoing target may send back in a body or a header.
 */
function withOwnCredentials(
  rules: CaptureRules,
  raw: readonly string[],
  url: string,
  bodySecrets: readonly string[],
): (text: string) => string {
  const needles = new Set<string>();
  for (const value of bodySecrets) {
    if (value.length < MIN_REDACTED_LENGTH) continue;
    needles.add(value);
    needles.add(JSON.stringify(value).slice(1, -1));
  }
  for (const value of maskedQueryValues(url, rules.credentialQuery)) {
    if (value.length < MIN_REDACTED_LENGTH) continue;
    needles.add(value);
    const decoded = decodedOrUndefined(value);
    if (decoded !== undefined && decoded.length >= MIN_REDACTED_LENGTH) needles.add(decoded);
  }
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const name = raw[index]!;
    if (!isCredentialHeader(name) && !rules.credentialHeaders.has(name.toLowerCase())) continue;
    const value = raw[index + 1]!.trim();
    for (const candidate of [value, value.replace(LEADING_SCHEME, '')]) {
      if (candidate.length < MIN_REDACTED_LENGTH) continue;
      needles.add(candidate);
      needles.add(JSON.stringify(candidate).slice(1, -1));
    }
  }
  if (needles.size === 0) return rules.redact;
  const ordered = [...needles].sort((a, b) => b.length - a.length);
  return (text) => rules.redact(ordered.reduce((current, needle) => current.split(needle).join(MASK), text));
}

/** The raw values of the query parameters `maskCredentialQuery` masks (a target may echo the URL it got). */
function maskedQueryValues(url: string, names: ReadonlySet<string>): string[] {
  const masked = maskCredentialQuery(url, names);
  if (masked === url) return [];
  const before = url.slice(url.indexOf('?') + 1).split('&');
  const after = masked.slice(masked.indexOf('?') + 1).split('&');
  return before.flatMap((pair, index) => (pair === after[index] ? [] : [pair.slice(pair.indexOf('=') + 1)]));
}

function decodedOrUndefined(value: string): string | undefined {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch (error) {
    if (error instanceof URIError) return undefined;
    throw error;
  }
}
