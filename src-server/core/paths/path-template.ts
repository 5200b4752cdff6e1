/**
 * OpenAPI path templates such as `/orders/{id}` or `/files/{name}.{ext}`.
 *
 * Matching rules (used by `matchPathTemplate`):
 * - Comparison is segment by segment on `/` of the raw request path, so an encoded slash (`%2F`)
 *   stays inside its segment. A query string or fragment in the path is ignored; `''` means `/`.
 * - Each request segment is percent-decoded (UTF-8) before it is compared; a segment whose escapes
 *   are malformed (e.g. `%zz`) is used as written. Template literals are decoded the same way, so
 *   `/caf%C3%A9` and `/café` are the same template literal.
 * - Literals compare exactly (case-sensitive). A parameter matches one non-empty segment, or a
 *   non-empty part of one inside a mixed segment (`{name}.{ext}`; earlier parameters take as much
 *   as they can: `a.b.c` gives name `a.b`, ext `c`). Parameter values are returned decoded.
 * - A trailing slash is significant: `/orders/` does not match `/orders`.
 */

export type TemplatePart = { kind: 'literal'; text: string } | { kind: 'parameter'; name: string };

export interface TemplateSegment {
  raw: string;
  parts: TemplatePart[];
}

export type ParsedPathTemplate =
  | {
      ok: true;
      segments: TemplateSegment[];
      /** Each name once, in template order. */
      parameterNames: string[];
      /** Names used more than once (Azure publishes such templates): every occurrence must have the same value. */
      repeatedNames: string[];
    }
  | { ok: false; problems: string[] };

export function parsePathTemplate(template: string): ParsedPathTemplate {
  const problems: string[] = [];
  if (!template.startsWith('/')) problems.push("a path must start with '/'");
  if (template.includes('?')) problems.push("a path must not contain a query string ('?')");
  if (template.includes('#')) problems.push("a path must not contain a fragment ('#')");
  const segments: TemplateSegment[] = [];
  const parameterNames: string[] = [];
  const repeatedNames: string[] = [];
  let offset = template.startsWith('/') ? 1 : 0;
  for (const raw of template.slice(offset).split('/')) {
    const parts = parseSegment(raw, offset, problems);
    for (const part of parts) {
      if (part.kind !== 'parameter') continue;
      if (!parameterNames.includes(part.name)) parameterNames.push(part.name);
      else if (!repeatedNames.includes(part.name)) repeatedNames.push(part.name);
    }
    segments.push({ raw, parts });
    offset += raw.length + 1;
  }
  return problems.length > 0
    ? { ok: false, problems }
    : { ok: true, segments, parameterNames, repeatedNames };
}

function parseSegment(raw: string, offset: number, problems: string[]): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let literalStart = 0;
  let openedAt = -1;
  for (let index = 0; index < raw.length; index += 1) {
    const char = raw.charAt(index);
    if (char === '{') {
      if (openedAt !== -1) {
        problems.push(`'{' at position ${offset + index} is inside another parameter`);
        return parts;
      }
      if (index > literalStart) parts.push({ kind: 'literal', text: raw.slice(literalStart, index) });
      openedAt = index;
    } else if (char === '}') {
      if (openedAt === -1) {
        problems.push(`'}' at position ${offset + index} has no matching '{'`);
        return parts;
      }
      const name = raw.slice(openedAt + 1, index);
      if (name === '') problems.push(`empty parameter name '{}' at position ${offset + openedAt}`);
      if (parts.at(-1)?.kind === 'parameter') {
        problems.push(`parameter {${name}} directly follows another parameter; put a literal between them`);
      }
      parts.push({ kind: 'parameter', name });
      openedAt = -1;
      literalStart = index + 1;
    }
  }
  if (openedAt !== -1) {
    problems.push(`'{' at position ${offset + openedAt} is not closed within its path segment`);
  } else if (literalStart < raw.length) {
    parts.push({ kind: 'literal', text: raw.slice(literalStart) });
  }
  return parts;
}

/** The parameter names of a template in order, or `[]` when the template is invalid. */
export function pathTemplateParameters(template: string): string[] {
  const parsed = parsePathTemplate(template);
  return parsed.ok ? parsed.parameterNames : [];
}

/**
 * The template with parameter names blanked (`/orders/{}`): two templates with the same shape
 * match exactly the same paths, which OpenAPI forbids within one document.
 */
export function templateShape(template: string): string {
  const parsed = parsePathTemplate(template);
  return parsed.ok ? shapeOfSegments(parsed.segments) : template;
}

export function shapeOfSegments(segments: readonly TemplateSegment[]): string {
  const shapes = segments.map((segment) =>
    segment.parts.map((part) => (part.kind === 'literal' ? decodeSegment(part.text) : '{}')).join(''),
  );
  return `/${shapes.join('/')}`;
}

type SegmentMatcher = (decodedSegment: string, params: Record<string, string>) => boolean;

export interface CompiledPathTemplate {
  template: string;
  /** Parameter values (decoded) when `path` matches, otherwise `null`. */
  match: (path: string) => Record<string, string> | null;
  /**
   * The same for a path already split on `/` and decoded: `decodedSegments` from index `from` on (none left is
   * the empty path). Spares a router that has split the request path splitting it again.
   */
  matchSegments: (decodedSegments: readonly string[], from: number) => Record<string, string> | null;
}

/** Compiles a template for repeated matching; `undefined` when the template is invalid. */
export function compilePathTemplate(template: string): CompiledPathTemplate | undefined {
  const parsed = parsePathTemplate(template);
  if (!parsed.ok) return undefined;
  const repeated = new Set(parsed.repeatedNames);
  const matchers = parsed.segments.map((segment) => segmentMatcher(segment, repeated));
  // A parameter named `__proto__` must become an own property, which only a prototype-less object takes by
  // assignment (copied into a plain one at the end); any other template fills a plain object directly.
  const protoParameter = parsed.parameterNames.includes('__proto__');
  const matchDecoded = (segments: readonly string[], from: number): Record<string, string> | null => {
    const count = Math.max(segments.length - from, 1);
    if (count !== matchers.length) return null;
    const params: Record<string, string> = protoParameter
      ? (Object.create(null) as Record<string, string>)
      : {};
    for (let index = 0; index < count; index++) {
      if (!matchers[index]!(segments[from + index] ?? '', params)) return null;
    }
    return protoParameter ? { ...params } : params;
  };
  return {
    template,
    match(path: string) {
      const segments = requestSegments(path);
      return segments === undefined ? null : matchDecoded(segments.map(decodeSegment), 0);
    },
    matchSegments: matchDecoded,
  };
}

/** `repeated`: names used more than once in the template, whose values must agree. */
function segmentMatcher(segment: TemplateSegment, repeated: ReadonlySet<string>): SegmentMatcher {
  const [only] = segment.parts;
  if (segment.parts.length === 0) return (value) => value === '';
  if (segment.parts.length === 1 && only?.kind === 'literal') {
    const literal = decodeSegment(only.text);
    return (value) => value === literal;
  }
  if (segment.parts.length === 1 && only?.kind === 'parameter') {
    if (repeated.has(only.name)) {
      return (value, params) => {
        if (value === '' || (Object.hasOwn(params, only.name) && params[only.name] !== value)) return false;
        params[only.name] = value;
        return true;
      };
    }
    return (value, params) => {
      if (value === '') return false;
      params[only.name] = value;
      return true;
    };
  }
  const names: string[] = [];
  const source = segment.parts
    .map((part) => {
      if (part.kind === 'literal') return escapeRegExp(decodeSegment(part.text));
      names.push(part.name);
      return '(.+)';
    })
    .join('');
  const pattern = new RegExp(`^${source}$`, 's');
  return (value, params) => {
    const found = pattern.exec(value);
    if (!found) return false;
    for (const [index, name] of names.entries()) {
      const part = found[index + 1] ?? '';
      if (repeated.has(name) && Object.hasOwn(params, name) && params[name] !== part) return false;
      params[name] = part;
    }
    return true;
  };
}

const compiledCache = new Map<string, CompiledPathTemplate | undefined>();
const COMPILED_CACHE_LIMIT = 2_000;

/**
 * Matches a request path (relative to the API base path, percent-encoded as received) against a
 * template; see the module comment for the rules. `null` when it does not match or the template
 * is invalid.
 */
export function matchPathTemplate(template: string, path: string): Record<string, string> | null {
  let compiled = compiledCache.get(template);
  if (compiled === undefined && !compiledCache.has(template)) {
    if (compiledCache.size >= COMPILED_CACHE_LIMIT) compiledCache.clear();
    compiled = compilePathTemplate(template);
    compiledCache.set(template, compiled);
  }
  return compiled ? compiled.match(path) : null;
}

/**
 * One score per segment: 2 for a literal, 1 for a mixed segment (`{name}.json`), 0 for a bare
 * parameter. Compare with `compareTemplateSpecificity`.
 */
export function templateSpecificity(template: string): number[] {
  const parsed = parsePathTemplate(template);
  if (!parsed.ok) return [];
  return parsed.segments.map((segment) => {
    const hasParameter = segment.parts.some((part) => part.kind === 'parameter');
    const hasLiteral = segment.parts.some((part) => part.kind === 'literal');
    if (!hasParameter) return 2;
    return hasLiteral ? 1 : 0;
  });
}

/** What specificity compares of a template, worked out once (sorting many templates compares each often). */
export interface SpecificityKey {
  template: string;
  scores: number[];
  literalLength: number;
}

export function specificityKey(template: string): SpecificityKey {
  return { template, scores: templateSpecificity(template), literalLength: literalLength(template) };
}

/**
 * Sort comparator, most specific first: the first segment where the scores differ decides
 * (`/orders/summary` before `/orders/{id}`, `/a/{x}/b` before `/{y}/b/c`); then more segments,
 * then more literal characters, then plain string order so the result is deterministic.
 */
export function compareTemplateSpecificity(a: string, b: string): number {
  return compareSpecificityKeys(specificityKey(a), specificityKey(b));
}

export function compareSpecificityKeys(a: SpecificityKey, b: SpecificityKey): number {
  const { scores: scoresA } = a;
  const { scores: scoresB } = b;
  for (let index = 0; index < Math.min(scoresA.length, scoresB.length); index += 1) {
    const difference = (scoresB[index] ?? 0) - (scoresA[index] ?? 0);
    if (difference !== 0) return difference;
  }
  if (scoresA.length !== scoresB.length) return scoresB.length - scoresA.length;
  const literalDifference = b.literalLength - a.literalLength;
  if (literalDifference !== 0) return literalDifference;
  if (a.template === b.template) return 0;
  return a.template < b.template ? -1 : 1;
}

/** The most specific template matching `path`, with its parameters; `null` when none matches. */
export function findBestTemplateMatch(
  templates: Iterable<string>,
  path: string,
): { template: string; params: Record<string, string> } | null {
  let best: { template: string; params: Record<string, string> } | null = null;
  for (const template of templates) {
    const params = matchPathTemplate(template, path);
    if (params && (best === null || compareTemplateSpecificity(template, best.template) < 0)) {
      best = { template, params };
    }
  }
  return best;
}

function literalLength(template: string): number {
  return template.replace(/\{[^}]*\}/g, '').length;
}

function requestSegments(path: string): string[] | undefined {
  const end = path.includes('?') || path.includes('#') ? path.search(/[?#]/) : -1;
  const pathOnly = end === -1 ? path : path.slice(0, end);
  if (pathOnly === '') return [''];
  if (!pathOnly.startsWith('/')) return undefined;
  return pathOnly.slice(1).split('/');
}

export function decodeSegment(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    // Malformed escapes: compare the segment as written (documented in the module comment).
    return segment;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
