import { decodeSegment } from './path-template.js';

/**
 * Normalises a base path: leading `/`, repeated `/` collapsed, no trailing `/`, `''` → `/`.
 * A query string or fragment is dropped.
 */
export function normalizeBasePath(path: string): string {
  const end = path.search(/[?#]/);
  const pathOnly = end === -1 ? path : path.slice(0, end);
  const segments = pathOnly.split('/').filter((segment) => segment !== '');
  return `/${segments.join('/')}`;
}

/**
 * True when one base path is a segment-boundary prefix of the other, after normalisation and
 * percent-decoding of each segment: `/api` and `/api/v2` overlap, `/api` and `/apiv2` do not,
 * `/` overlaps everything, and a path overlaps itself. Case-sensitive.
 */
export function basePathsOverlap(a: string, b: string): boolean {
  const segmentsA = basePathSegments(a);
  const segmentsB = basePathSegments(b);
  const shorter = segmentsA.length <= segmentsB.length ? segmentsA : segmentsB;
  const longer = shorter === segmentsA ? segmentsB : segmentsA;
  return shorter.every((segment, index) => segment === longer[index]);
}

/** `basePath` + `operationPath`, e.g. `/orders-api/v1` + `/orders/{id}`; a `/` base adds nothing. */
export function joinBasePath(basePath: string, operationPath: string): string {
  const base = normalizeBasePath(basePath);
  const operation = operationPath.startsWith('/') ? operationPath : `/${operationPath}`;
  return base === '/' ? operation : `${base}${operation}`;
}

function basePathSegments(path: string): string[] {
  const normalized = normalizeBasePath(path);
  return normalized === '/' ? [] : normalized.slice(1).split('/').map(decodeSegment);
}
