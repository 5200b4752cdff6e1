import { HEALTH_PATH, READY_PATH } from '../health/health-endpoints.js';
import { decodeSegment } from './path-template.js';

/** First path segments no API may serve: every listener answers `/healthz` and `/readyz` itself. */
const RESERVED_SEGMENTS = new Map([HEALTH_PATH, READY_PATH].map((path) => [path.slice(1), path]));

/**
 * The reserved path an API would collide with, if any: its base path starts with a reserved segment
 * (`/healthz`, `/readyz/v1`), or, at the base path `/`, one of its operation paths does. An `All operations`
 * entry at `/` is allowed; the listener answers those two paths before routing, as documented.
 */
export function reservedPathOf(basePath: string, operationPaths: readonly string[]): string | undefined {
  const first = firstSegment(basePath);
  if (first !== undefined) return RESERVED_SEGMENTS.get(first);
  for (const path of operationPaths) {
    const reserved = RESERVED_SEGMENTS.get(firstSegment(path) ?? '');
    if (reserved) return reserved;
  }
  return undefined;
}

function firstSegment(path: string): string | undefined {
  const segment = path
    .split(/[?#]/, 1)[0]!
    .split('/')
    .find((part) => part !== '');
  return segment === undefined ? undefined : decodeSegment(segment);
}
