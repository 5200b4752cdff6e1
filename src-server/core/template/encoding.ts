/**
 * Percent-encoding of request data for its place in the target URL, and the character rules for
 * configuration values. Works on UTF-8 bytes; lone surrogates become U+FFFD instead of throwing.
 */

const HEX = Array.from({ length: 256 }, (_, byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`);
const PERCENT = 0x25;
const ONLY_UNRESERVED = /^[A-Za-z0-9\-._~]*$/;
const INVALID_HEADER_CHARACTER = /[^\t\x20-\x7e\x80-\xff]/;
const HEADER_LINE_BREAK_OR_NUL = /[\r\n\0]/;

/** Encodes everything but RFC 3986 unreserved characters, so the value cannot add segments or parameters. */
export function percentEncodeComponent(text: string): string {
  if (ONLY_UNRESERVED.test(text)) return text;
  let encoded = '';
  for (const byte of Buffer.from(text, 'utf8'))
    encoded += isUnreservedByte(byte) ? String.fromCharCode(byte) : HEX[byte]!;
  return encoded;
}

/** Decodes valid `%XX` escapes and leaves anything else as it is; invalid UTF-8 becomes U+FFFD. */
export function percentDecodeLenient(text: string): string {
  if (!text.includes('%')) return text;
  const bytes = Buffer.from(text, 'utf8');
  const decoded: number[] = [];
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i] as number;
    const escaped = byte === PERCENT ? hexPairValue(bytes, i + 1) : -1;
    if (escaped >= 0) {
      decoded.push(escaped);
      i += 2;
    } else {
      decoded.push(byte);
    }
  }
  return Buffer.from(decoded).toString('utf8');
}

/** True for `.` and `..` in any spelling a URL parser resolves (`%2e`, `.%2E`, …). */
export function isDotSegment(segment: string): boolean {
  return /^(?:\.|%2e){1,2}$/i.test(segment);
}

export type PathRemainderResult = { ok: true; text: string } | { ok: false; reason: string };

/**
 * The incoming path remainder (`#api.OperationPath`) as a multi-segment path: every segment decoded and
 * re-encoded, so only the request's own `/` separate segments. Empty interior segments, `.`/`..` segments and
 * segments holding an encoded `/` or `\\` or dot segment (decoded once more too: `%252e%252e`) are refused; one
 * trailing `/` is kept.
 */
export function encodePathRemainder(raw: string): PathRemainderResult {
  const path = raw.startsWith('/') ? raw.slice(1) : raw;
  // `/base/` is not `/base`: the slash after the base path goes on to the target.
  if (path === '') return { ok: true, text: raw === '/' ? '/' : '' };
  const segments = path.split('/');
  const encoded: string[] = [];
  for (const [index, segment] of segments.entries()) {
    if (segment === '') {
      if (index === segments.length - 1) {
        encoded.push('');
        continue;
      }
      return { ok: false, reason: 'contains an empty path segment (//)' };
    }
    const decoded = percentDecodeLenient(segment);
    if (decoded === '.' || decoded === '..')
      return { ok: false, reason: "contains a '.' or '..' path segment" };
    const problem = pathValueProblem(decoded);
    if (problem !== undefined) return { ok: false, reason: `has a segment that ${problem} once decoded` };
    encoded.push(percentEncodeComponent(decoded));
  }
  return { ok: true, text: encoded.join('/') };
}

/**
 * Why a request value cannot stand in a path section, or undefined when it can (it is then percent-encoded).
 * A value holding `/` or `\\`, or that is `.` or `..`, is refused rather than encoded: a target that decodes `%2F`
 * would otherwise read it as path segments and serve something outside the configured path. The value is also
 * looked at decoded once more, for targets that decode twice.
 */
export function pathValueProblem(value: string): string | undefined {
  for (const text of value.includes('%') ? [value, percentDecodeLenient(value)] : [value]) {
    if (text.includes('/') || text.includes('\\')) return "contains '/' or '\\'";
    if (text === '.' || text === '..') return "is a '.' or '..' segment";
  }
  return undefined;
}

/**
 * The incoming query string (`#api.QueryParameters`) re-serialized: its own `&` and first `=` of each pair
 * stay, valid escapes stay, and everything a URL could misread (`#`, extra `=`, spaces, controls, non-ASCII,
 * stray `%`) is percent-encoded. Empty pairs are dropped, as URLSearchParams does.
 */
export function reencodeQueryString(raw: string): string {
  const pairs: string[] = [];
  for (const pair of raw.split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    pairs.push(
      equals === -1
        ? normalizeQueryComponent(pair)
        : `${normalizeQueryComponent(pair.slice(0, equals))}=${normalizeQueryComponent(pair.slice(equals + 1))}`,
    );
  }
  return pairs.join('&');
}

function normalizeQueryComponent(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  let normalized = '';
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i] as number;
    if (byte === PERCENT && hexPairValue(bytes, i + 1) >= 0) {
      normalized += String.fromCharCode(byte, bytes[i + 1] as number, bytes[i + 2] as number);
      i += 2;
    } else {
      normalized += isQuerySafeByte(byte) ? String.fromCharCode(byte) : HEX[byte]!;
    }
  }
  return normalized;
}

export type PlaceKind = 'base' | 'path' | 'query' | 'header';

export interface TextProblem {
  /** Offset of the offending character in the text. */
  offset: number;
  message: string;
}

/**
 * Why configuration text (literal text, `#env` values, expression results) may not stand in this place,
 * or undefined when it may. Request data is encoded instead of checked, except in headers.
 */
export function configurationTextProblem(text: string, place: PlaceKind): TextProblem | undefined {
  if (place === 'header') return headerValueProblem(text);
  const control = indexOfControlCharacter(text);
  if (control !== -1) {
    return {
      offset: control,
      message: 'contains a control character (such as a tab, CR or LF), which a URL cannot hold',
    };
  }
  const hash = text.indexOf('#');
  if (hash !== -1)
    return { offset: hash, message: "contains '#', which would start a URL fragment; write %23" };
  const question = place === 'query' ? -1 : text.indexOf('?');
  if (question !== -1) {
    return {
      offset: question,
      message:
        place === 'base'
          ? "contains '?'; section 1 is a server name or base URL, and query parameters belong in section 4"
          : "contains '?', which is not allowed in a path section; query parameters belong in section 4",
    };
  }
  return undefined;
}

export function headerValueProblem(text: string): TextProblem | undefined {
  const lineBreak = HEADER_LINE_BREAK_OR_NUL.exec(text);
  if (lineBreak !== null) {
    return { offset: lineBreak.index, message: 'contains CR, LF or NUL, which could split the HTTP header' };
  }
  const invalid = INVALID_HEADER_CHARACTER.exec(text);
  if (invalid !== null) {
    return {
      offset: invalid.index,
      message:
        'contains a character not allowed in an HTTP header value (a control character or one above U+00FF)',
    };
  }
  return undefined;
}

function indexOfControlCharacter(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return i;
  }
  return -1;
}

function isUnreservedByte(byte: number): boolean {
  return (
    (byte >= 0x41 && byte <= 0x5a) ||
    (byte >= 0x61 && byte <= 0x7a) ||
    (byte >= 0x30 && byte <= 0x39) ||
    byte === 0x2d ||
    byte === 0x2e ||
    byte === 0x5f ||
    byte === 0x7e
  );
}

/** Unreserved, sub-delimiters but `&`, `=` and `'`, and `: @ / ? [ ]`: what a query value may carry unencoded. */
function isQuerySafeByte(byte: number): boolean {
  return isUnreservedByte(byte) || '!$()*+,;:@/?[]'.includes(String.fromCharCode(byte));
}

function hexPairValue(bytes: Buffer, at: number): number {
  const high = hexDigitValue(bytes[at]);
  const low = hexDigitValue(bytes[at + 1]);
  return high < 0 || low < 0 ? -1 : high * 16 + low;
}

function hexDigitValue(byte: number | undefined): number {
  if (byte === undefined) return -1;
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x37;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x57;
  return -1;
}
