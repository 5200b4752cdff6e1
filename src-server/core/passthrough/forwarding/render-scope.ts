import { randomUUID } from 'node:crypto';
import type { EnvValue, RenderScope } from '../../template/index.js';

export type EnvLookup = (variable: string, member?: string) => EnvValue | undefined;

export interface RenderScopeInput {
  env: EnvLookup;
  basePath: string;
  operationPath: string;
  pathParameters: Readonly<Record<string, string>>;
  queryString: string;
  /** The request's instant; the clock is read on first use when absent. */
  now?: Date;
  newGuid?: () => string;
}

/** The scope one request renders with (classes, so a request allocates two small objects and no closures). */
export function createRenderScope(input: RenderScopeInput): RenderScope {
  return new RequestScope(input);
}

class RequestApi {
  #query: URLSearchParams | undefined;

  constructor(
    readonly basePath: string,
    readonly operationPath: string,
    readonly pathParameters: Readonly<Record<string, string>>,
    readonly queryString: string,
  ) {}

  /** Parsed only when a template reads a query parameter. */
  get query(): URLSearchParams {
    return (this.#query ??= new URLSearchParams(this.queryString));
  }
}

class RequestScope implements RenderScope {
  readonly api: RequestApi;
  readonly env: EnvLookup;
  readonly #newGuid: (() => string) | undefined;
  #now: Date | undefined;

  constructor(input: RenderScopeInput) {
    this.api = new RequestApi(input.basePath, input.operationPath, input.pathParameters, input.queryString);
    this.env = input.env;
    this.#now = input.now;
    this.#newGuid = input.newGuid;
  }

  // One request reads the clock once, so every DateTime.UtcNow of it agrees.
  now(): Date {
    return (this.#now ??= new Date());
  }

  newGuid(): string {
    return this.#newGuid ? this.#newGuid() : randomUUID();
  }
}
