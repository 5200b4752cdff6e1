import { isDotSegment } from './encoding.js';
import { MAX_URL_LENGTH } from './limits.js';
import type { RenderError } from './types.js';

/**
 * Joins rendered sections into the target URL and checks it: sections 1–3 joined with one `/` (duplicate
 * slashes trimmed at the joins only), `?` before a non-empty section 4, `https://` when section 1 has no
 * scheme. The origin (scheme, host, port) must be the one section 1 alone gives; section 1 holds
 * configuration only, so request data can never move the request to another server.
 */

export interface RenderedTargetSections {
  base: string;
  paths: readonly string[];
  query: string | undefined;
}

export type AssemblyResult = { ok: true; url: string } | { ok: false; error: RenderError };

export type OriginResult = { ok: true; base: string; origin: string } | { ok: false; error: RenderError };

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//;

/** Section 1 with its scheme, and the origin it names. */
export function configurationOrigin(section1: string): OriginResult {
  if (section1.trim() === '')
    return invalid('section 1 rendered empty; it must give the server name or base URL');
  const scheme = SCHEME.exec(section1)?.[1]?.toLowerCase();
  if (scheme !== undefined && scheme !== 'http' && scheme !== 'https') {
    return invalid(`section 1 uses the scheme '${scheme}'; only http and https targets are supported`);
  }
  const base = withDefaultScheme(section1);
  const parsed = parseUrl(base);
  if (parsed === undefined || parsed.host === '') {
    return invalid('section 1 is not a valid server name or base URL');
  }
  if (parsed.search !== '' || parsed.hash !== '') {
    return invalid('section 1 must not contain a query or fragment; query parameters belong in section 4');
  }
  return { ok: true, base, origin: parsed.origin };
}

export function withDefaultScheme(section1: string): string {
  return SCHEME.test(section1) ? section1 : `https://${section1}`;
}

/** The raw joined URL, before any check; also used for the masked form. */
export function joinSections(base: string, paths: readonly string[], query: string | undefined): string {
  // Kept as pieces and joined once: trimming the URL as it grows would copy it for every section.
  const pieces = [base];
  for (const path of paths) {
    if (path === '') continue;
    trimTrailingSlashesOf(pieces);
    pieces.push('/', trimLeadingSlashes(path));
  }
  if (query !== undefined && query !== '') pieces.push('?', query);
  let url = pieces[0]!;
  for (let index = 1; index < pieces.length; index++) url += pieces[index]!;
  return url;
}

/** Trims the slashes the pieces end with, as if they were one text. */
function trimTrailingSlashesOf(pieces: string[]): void {
  while (pieces.length > 0) {
    const trimmed = trimTrailingSlashes(pieces[pieces.length - 1]!);
    if (trimmed !== '') {
      pieces[pieces.length - 1] = trimmed;
      return;
    }
    pieces.pop();
  }
}

export function assembleTargetUrl(
  origin: { base: string; origin: string },
  sections: RenderedTargetSections,
): AssemblyResult {
  const raw = joinSections(origin.base, sections.paths, sections.query);
  if (raw.length > MAX_URL_LENGTH)
    return invalid(`the target URL would be longer than ${MAX_URL_LENGTH} characters`);
  if (hasDotSegment(raw)) {
    return {
      ok: false,
      error: {
        kind: 'unsafe-value',
        place: 'target',
        message: "the target path would contain a '.' or '..' segment",
      },
    };
  }
  if (parsesToItself(raw, origin.origin)) return { ok: true, url: raw };
  const parsed = parseUrl(raw);
  if (parsed === undefined) return invalid('the target URL is not valid');
  if (parsed.origin !== origin.origin) {
    return {
      ok: false,
      error: {
        kind: 'origin-change',
        place: 'target',
        message: 'the target URL would leave the server given by section 1',
      },
    };
  }
  if (parsed.hash !== '') return invalid('the target URL must not have a fragment');
  return { ok: true, url: parsed.href };
}

/** The masked URL in the same normal form as the real one when it parses, else as joined. */
export function normalizeMaskedUrl(raw: string): string {
  return parseUrl(raw)?.href ?? raw;
}

/** Whether a segment of the URL's path is `.` or `..` in any spelling (`%2e`, `.%2E`, …). */
function hasDotSegment(url: string): boolean {
  const pathStart = url.indexOf('/', url.indexOf('://') + 3);
  if (pathStart === -1) return false;
  const queryStart = url.indexOf('?', pathStart);
  const end = queryStart === -1 ? url.length : queryStart;
  // Every spelling of a dot segment has a '.' or a '%'.
  const dot = url.indexOf('.', pathStart);
  const percent = url.indexOf('%', pathStart);
  if ((dot === -1 || dot > end) && (percent === -1 || percent > end)) return false;
  let segmentStart = pathStart + 1;
  for (let index = segmentStart; index <= end; index++) {
    const code = index < end ? url.charCodeAt(index) : SLASH;
    // Special schemes treat '\' as '/'.
    if (code !== SLASH && code !== BACKSLASH) continue;
    if (index - segmentStart <= MAX_DOT_SEGMENT_LENGTH && mayBeDotSegment(url.charCodeAt(segmentStart))) {
      if (isDotSegment(url.slice(segmentStart, index))) return true;
    }
    segmentStart = index + 1;
  }
  return false;
}

/** `%2e%2e` */
const MAX_DOT_SEGMENT_LENGTH = 6;
const BACKSLASH = 0x5c;

/** A dot segment starts with `.` or `%` (`%2e`). */
function mayBeDotSegment(code: number): boolean {
  return code === 0x2e || code === 0x25;
}

/** A path and query the URL parser keeps as they are: no character it would encode or read differently. */
const KEPT_PATH_AND_QUERY = /\/[A-Za-z0-9\-._~!$&()*+,;=:@%/]*(?:\?[A-Za-z0-9\-._~!$&()*+,;=:@%/?]*)?$/y;

/**
 * Whether parsing `raw` would give `raw` back, with the expected origin: it starts with the origin (a canonical
 * serialization, so the parser keeps it) followed by a path and query of characters the parser neither encodes
 * nor interprets (no `#`, `\`, quotes, spaces, controls or non-ASCII). Dot segments are refused before this. The
 * common request is spared the URL parser; anything else is parsed.
 */
function parsesToItself(raw: string, origin: string): boolean {
  if (!raw.startsWith(origin)) return false;
  KEPT_PATH_AND_QUERY.lastIndex = origin.length;
  return KEPT_PATH_AND_QUERY.test(raw);
}

function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch (error) {
    // The URL constructor reports unparseable input with a TypeError; that is an answer, not a fault.
    if (error instanceof TypeError) return undefined;
    throw error;
  }
}

function trimTrailingSlashes(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === SLASH) end--;
  return end === text.length ? text : text.slice(0, end);
}

function trimLeadingSlashes(text: string): string {
  let start = 0;
  while (start < text.length && text.charCodeAt(start) === SLASH) start++;
  return start === 0 ? text : text.slice(start);
}

const SLASH = 0x2f;

function invalid(message: string): { ok: false; error: RenderError } {
  return { ok: false, error: { kind: 'invalid-url', place: 'target', message } };
}
