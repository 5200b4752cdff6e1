import { normalizeBasePath } from '../../../core/paths/base-path.js';
import { quoteValue } from './object-access.js';

/** Server URL templating (`https://{host}/{basePath}`) and base-path extraction. */

export interface SubstitutedUrl {
  url: string;
  /** Variable names used in the URL, in order of first use. */
  usedNames: string[];
  /** Used names with no value; left in the URL as `{name}`. */
  unknownNames: string[];
  /** Unbalanced braces and other template problems. */
  problems: string[];
}

export function substituteServerVariables(url: string, values: ReadonlyMap<string, string>): SubstitutedUrl {
  const usedNames: string[] = [];
  const unknownNames: string[] = [];
  const problems: string[] = [];
  let result = '';
  let index = 0;
  while (index < url.length) {
    const open = url.indexOf('{', index);
    const close = url.indexOf('}', index);
    if (close !== -1 && (open === -1 || close < open)) {
      problems.push(`'}' at position ${close} has no matching '{'`);
      result += url.slice(index, close + 1);
      index = close + 1;
      continue;
    }
    if (open === -1) {
      result += url.slice(index);
      break;
    }
    const nextOpen = url.indexOf('{', open + 1);
    if (close === -1 || (nextOpen !== -1 && nextOpen < close)) {
      problems.push(`'{' at position ${open} is not closed`);
      result += url.slice(index);
      break;
    }
    const name = url.slice(open + 1, close);
    if (!usedNames.includes(name)) usedNames.push(name);
    const value = values.get(name);
    if (value === undefined && !unknownNames.includes(name)) unknownNames.push(name);
    result += url.slice(index, open) + (value ?? `{${name}}`);
    index = close + 1;
  }
  return { url: result, usedNames, unknownNames, problems };
}

export type BasePathResult =
  | {
      ok: true;
      basePath: string;
      /** The URL with relative parts resolved against the document's URL when it is known, else as written. */
      serverUrl: string;
      notes: string[];
    }
  | { ok: false; message: string };

const SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:/;
// Stand-in origin for resolving relative server URLs when the document's own URL is unknown; never contacted.
const RELATIVE_BASE = 'https://relative.invalid/';

/**
 * The base path of a server URL whose variables are already substituted. Absolute
 * (`https://api.example.com/v1`), scheme-relative (`//api.example.com/v1`) and relative (`/v1`,
 * `v1`, `./v1`) URLs all give `/v1`. Dot segments are resolved as a URL parser does. A relative URL is
 * resolved against `documentUrl` (http or https) when given, as OpenAPI says, else against `/`; an empty
 * URL means the document's own folder.
 */
export function basePathFromServerUrl(url: string, documentUrl?: string): BasePathResult {
  const notes: string[] = [];
  const base = documentUrl !== undefined && /^https?:/i.test(documentUrl) ? documentUrl : undefined;
  let parsed: URL;
  let serverUrl = url;
  try {
    if (SCHEME.test(url)) {
      const scheme = url.slice(0, url.indexOf(':')).toLowerCase();
      if (!url.slice(scheme.length + 1).startsWith('//')) {
        return {
          ok: false,
          message: `server URL ${quoteValue(url)} must be like https://host/path or a path like /v1`,
        };
      }
      parsed = new URL(url);
      if (scheme !== 'http' && scheme !== 'https') {
        notes.push(`server URL scheme ${quoteValue(scheme)} is not http or https`);
      }
    } else if (base !== undefined) {
      parsed = new URL(url === '' ? '.' : url, base);
      serverUrl = parsed.href;
      if (!url.startsWith('/')) {
        notes.push(
          `relative server URL ${quoteValue(url)} is resolved against the document's URL: base path ${quoteValue(normalizeBasePath(parsed.pathname))}`,
        );
      }
    } else if (url.startsWith('//')) {
      parsed = new URL(`https:${url}`);
    } else {
      parsed = new URL(url, RELATIVE_BASE);
      if (!url.startsWith('/')) {
        notes.push(
          url === ''
            ? 'empty server URL: the base path is "/" (the document\'s own location is not known)'
            : `relative server URL ${quoteValue(url)} is resolved against "/" (the document's own location is not known)`,
        );
      }
    }
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return { ok: false, message: `server URL ${quoteValue(url)} is not a valid URL` };
  }
  if (parsed.search !== '' || parsed.hash !== '') {
    notes.push(`the query string and fragment of server URL ${quoteValue(url)} are ignored`);
  }
  return { ok: true, basePath: normalizeBasePath(parsed.pathname), serverUrl, notes };
}
