/** Public types of the template engine. */

export type SectionName = 'section1' | 'section2' | 'section3' | 'section4';
export type HeaderPlace = `header:${number}`;
/** Where a template lives: one of the four target URL sections or the value of header entry N. */
export type TemplatePlace = SectionName | HeaderPlace;

export type EnvVariableShape = { kind: 'value' } | { kind: 'group'; members: readonly string[] };

/** What a template may refer to; known when the passthrough configuration is saved or loaded. */
export interface TemplateCompileContext {
  /** The environment variables of the agent group, by name. */
  env: { variables: Readonly<Record<string, EnvVariableShape>> };
  /** Path parameters of the selected operation; empty for `All operations`. */
  pathParameters: readonly string[];
  scope: 'operation' | 'allOperations';
}

/** A compile (save) time error. `position` is a 0-based offset into that place's text. */
export interface TemplateError {
  place: TemplatePlace;
  position: number;
  length?: number;
  message: string;
}

export interface EnvValue {
  value: string;
  secret: boolean;
}

/** Everything one request supplies to rendering. Built per request; cheap to construct. */
export interface RenderScope {
  /** Looks up `#env.<variable>` (member undefined) or `#env.<variable>.<member>`; undefined when absent. */
  env: (variable: string, member?: string) => EnvValue | undefined;
  api: {
    /** The API base path from its specification, e.g. `/orders`. Configuration, not request data. */
    basePath: string;
    /** The incoming path below the base path as received (still percent-encoded), e.g. `/lookup/42`. */
    operationPath: string;
    /** Decoded values of the operation's path parameters. */
    pathParameters: Readonly<Record<string, string>>;
    /** The raw query string of the incoming request, without `?`. */
    queryString: string;
    /** The parsed query string. */
    query: URLSearchParams;
  };
  now: () => Date;
  /** A new GUID in its usual 8-4-4-4-12 hexadecimal form (e.g. `crypto.randomUUID()`). */
  newGuid: () => string;
}

export type RenderErrorKind =
  'missing-reference' | 'origin-change' | 'invalid-url' | 'unsafe-value' | 'expression-error';

/** A render (request) time error. Messages name references and spans, never values. */
export interface RenderError {
  kind: RenderErrorKind;
  place: TemplatePlace | 'target';
  message: string;
  /** The reference involved, e.g. `#env.backend.url`, when there is one. */
  reference?: string;
}
