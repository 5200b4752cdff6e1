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
  let url = base;
  for (const path of paths) {
    if (path === '') continue;
    url = `${trimTrailingSlashes(url)}/${trimLeadingSlashes(path)}`;
  }
  return query === undefined || query === '' ? url : `${url}?${query}`;
}

export function assembleTargetUrl(
  origin: { base: string; origin: string },
  sections: RenderedTargetSections,
): AssemblyResult {
  const raw = joinSections(origin.base, sections.paths, sections.query);
  if (raw.length > MAX_URL_LENGTH)
    return invalid(`the target URL would be longer than ${MAX_URL_LENGTH} characters`);
  if (pathSegmentsOf(raw).some(isDotSegment)) {
    return {
      ok: false,
      error: {
        kind: 'unsafe-value',
        place: 'target',
        message: "the target path would contain a '.' or '..' segment",
      },
    };
  }
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

function pathSegmentsOf(url: string): string[] {
  const afterScheme = url.indexOf('://') + 3;
  const pathStart = url.indexOf('/', afterScheme);
  if (pathStart === -1) return [];
  const queryStart = url.indexOf('?', pathStart);
  const path = url.slice(pathStart + 1, queryStart === -1 ? undefined : queryStart);
  // Special schemes treat '\' as '/'.
  return path.split(/[/\\]/);
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
  while (end > 0 && text[end - 1] === '/') end--;
  return text.slice(0, end);
}

function trimLeadingSlashes(text: string): string {
  let start = 0;
  while (start < text.length && text[start] === '/') start++;
  return text.slice(start);
}

function invalid(message: string): { ok: false; error: RenderError } {
  return { ok: false, error: { kind: 'invalid-url', place: 'target', message } };
}
