import type { ApiRecord, PassthroughRecord } from '../../core/model/config-model.js';
import type { BuiltApiRoute } from './api-route.js';

/**
 * What an API's route is built from, as a short text: the API's and its passthrough's revision and update time
 * (every change of either bumps one of them) and the environment's variable shapes. The operations and entries
 * themselves are never serialized: an API may have tens of thousands.
 */
export function apiRouteStamp(
  api: ApiRecord,
  passthrough: PassthroughRecord | undefined,
  shapesKey: string,
): string {
  const own = `${api.id}\u0000${api.revision}\u0000${api.updatedAt}\u0000${api.basePath}\u0000${api.name}`;
  const entries = passthrough
    ? `${passthrough.id}\u0000${passthrough.revision}\u0000${passthrough.updatedAt}`
    : '-';
  return `${own}\u0000${entries}\u0000${shapesKey}`;
}

/**
 * Built API routes kept between runtime builds: a configuration write that does not touch an API reuses its route
 * (compiled entries, path index) as it is, so the cost of a write follows what it changed, not the size of the
 * configuration. Routes do not depend on the agent group, so groups share them. Each build keeps only what it
 * used.
 */
export class ApiRouteCache {
  #previous = new Map<string, { stamp: string; built: BuiltApiRoute }>();
  #current = new Map<string, { stamp: string; built: BuiltApiRoute }>();
  builds = 0;

  beginBuild(): void {
    this.#current = new Map();
  }

  endBuild(): void {
    this.#previous = this.#current;
  }

  /** Keeps the routes of a runtime that stays in force (its group did not change) for the next builds. */
  retain(stamps: readonly string[]): void {
    for (const stamp of stamps) {
      const cached = this.#current.get(stamp) ?? this.#previous.get(stamp);
      if (cached) this.#current.set(stamp, cached);
    }
  }

  route(stamp: string, build: () => BuiltApiRoute): BuiltApiRoute {
    const cached = this.#current.get(stamp) ?? this.#previous.get(stamp);
    if (cached) {
      this.#current.set(stamp, cached);
      return cached.built;
    }
    const built = build();
    this.builds++;
    this.#current.set(stamp, { stamp, built });
    return built;
  }
}
