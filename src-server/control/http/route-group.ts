import { sharedUntilFailure } from '../../core/async/shared-until-failure.js';
import type { AnyRoute } from './route.js';

/**
 * Management routes whose modules load at the first request under one of their prefixes rather than at start:
 * parsing their code and building their zod schemas and handlers was ~10 % of the CPU a cold `gatehouse serve`
 * spent before its first answer (440 -> 396 ms at 1M entries), for routes that answer is never one of.
 */
export interface LazyRouteGroup {
  /** For messages: what the group holds. */
  name: string;
  /**
   * Path prefixes (whole segments, no parameters) that every route of the group is under, and no other route is.
   * A request under none of them never loads the group.
   */
  prefixes: readonly string[];
  /** Loads the group's modules and builds its routes, once (a failed load is tried again at the next call). */
  load: () => Promise<readonly AnyRoute[]>;
}

export function lazyRouteGroup(
  name: string,
  prefixes: readonly string[],
  build: () => Promise<readonly AnyRoute[]>,
): LazyRouteGroup {
  return { name, prefixes, load: sharedUntilFailure(build) };
}

/**
 * Whether a request path (or a route's Express path) is under one of `prefixes`. Case-insensitive like Express's
 * routing, so that a path a route would match is never missed.
 */
export function isUnderPrefixes(path: string, prefixes: readonly string[]): boolean {
  const lowerCase = path.toLowerCase();
  return prefixes.some((prefix) => lowerCase === prefix || lowerCase.startsWith(`${prefix}/`));
}

/**
 * Throws when a route lies outside its group's prefixes, or inside another's: the groups could then answer a
 * request differently from one router holding every route (a 405 from one group for a path another serves).
 */
export function assertRoutesUnder(
  routes: readonly AnyRoute[],
  own: LazyRouteGroup | undefined,
  groups: readonly LazyRouteGroup[],
): void {
  for (const route of routes) {
    if (own && !isUnderPrefixes(route.path, own.prefixes))
      throw new Error(
        `Route ${route.method} ${route.path} is outside the prefixes of route group ${own.name}.`,
      );
    const other = groups.find((group) => group !== own && isUnderPrefixes(route.path, group.prefixes));
    if (other)
      throw new Error(
        `Route ${route.method} ${route.path} lies under the prefixes of route group ${other.name}.`,
      );
  }
}

/** Every route: the groups loaded, in their order, then `routes` (the OpenAPI document lists them all). */
export async function allRoutes(
  groups: readonly LazyRouteGroup[],
  routes: readonly AnyRoute[],
): Promise<AnyRoute[]> {
  const loaded = await Promise.all(groups.map((group) => group.load()));
  return [...loaded.flat(), ...routes];
}
