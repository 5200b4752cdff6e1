import { decodeSegment } from '../../core/paths/path-template.js';

export type RequestTarget =
  | {
      ok: true;
      /** As received, percent-encoded, without the query. */
      path: string;
      /** As received, without `?`. */
      query: string;
      rawSegments: string[];
      /** Percent-decoded, for matching base paths, templates and policy prefixes. */
      decodedSegments: string[];
    }
  | { ok: false; detail: string };

const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;
/** `%2e%2e` */
const MAX_DOT_SEGMENT_LENGTH = 6;

/** Every spelling of a dot segment starts with `.` or `%`. */
function mayBeDotSegment(segment: string): boolean {
  const first = segment.charCodeAt(0);
  return first === 0x2e || first === 0x25;
}

/**
 * Reads the request target. The absolute form (`GET http://host/path`) is accepted as RFC 9112 requires, but
 * only its path and query count: the target is always the configured one. Dot segments (in any spelling) and
 * encoded separators (`%2F`, `%5C`) or NUL are refused, so a path cannot mean one thing to the gateway's
 * routing and policies and another to the target.
 */
export function parseRequestTarget(url: string): RequestTarget {
  let target = url;
  if (!target.startsWith('/')) {
    const absolute = ABSOLUTE_FORM.exec(target);
    if (!absolute) return { ok: false, detail: 'The request target must be an absolute path.' };
    target = target.slice(absolute[0].length);
    if (!target.startsWith('/')) target = `/${target}`;
  }
  if (target.includes('#')) return { ok: false, detail: 'The request target must not contain a fragment.' };
  const queryStart = target.indexOf('?');
  const path = queryStart === -1 ? target : target.slice(0, queryStart);
  const query = queryStart === -1 ? '' : target.slice(queryStart + 1);
  const rawSegments: string[] = [];
  const decodedSegments: string[] = [];
  // The segments between slashes (a loop of `indexOf`: `split` costs more on every request).
  for (let start = 1; start <= path.length;) {
    let end = path.indexOf('/', start);
    if (end === -1) end = path.length;
    const raw = path.slice(start, end);
    if (
      raw.includes('\\') ||
      (raw.length <= MAX_DOT_SEGMENT_LENGTH && mayBeDotSegment(raw) && DOT_SEGMENT.test(raw))
    ) {
      return { ok: false, detail: "The request path must not contain '.' or '..' segments or backslashes." };
    }
    const decoded = raw.includes('%') ? decodeSegment(raw) : raw;
    if ((decoded !== raw && /[/\\]/.test(decoded)) || decoded.includes('\0')) {
      return { ok: false, detail: 'The request path must not contain encoded slashes, backslashes or NUL.' };
    }
    rawSegments.push(raw);
    decodedSegments.push(decoded);
    start = end + 1;
  }
  return { ok: true, path, query, rawSegments, decodedSegments };
}
