import {
  decodeSegment,
  parsePathTemplate,
  type CompiledPathTemplate,
} from '../../core/paths/path-template.js';

/** What the index needs of a path of the route table. */
export interface IndexedPath {
  template: string;
  matcher: CompiledPathTemplate;
}

interface Bucket<P> {
  /** Templates whose first segment is one literal, by that literal (decoded). */
  byFirstLiteral: Map<string, P[]>;
  /** The others (a parameter in the first segment), most specific first. */
  open: P[];
}

/**
 * The path templates of one API indexed by segment count and first literal segment, so a request tries the few
 * templates that can match instead of all of them (an API may have tens of thousands). Within the candidates the
 * specificity order of the full list is kept: the first template that matches is the one a scan would find.
 */
export class PathIndex<PathRoute extends IndexedPath> {
  readonly #buckets = new Map<number, Bucket<PathRoute>>();
  readonly #rank = new Map<PathRoute, number>();

  /** `paths` most specific first. */
  constructor(paths: readonly PathRoute[]) {
    paths.forEach((path, rank) => {
      this.#rank.set(path, rank);
      const parsed = parsePathTemplate(path.template);
      if (!parsed.ok) return;
      const count = parsed.segments.length;
      let bucket = this.#buckets.get(count);
      if (!bucket) this.#buckets.set(count, (bucket = { byFirstLiteral: new Map(), open: [] }));
      const parts = parsed.segments[0]!.parts;
      const first =
        parts.length === 0
          ? ''
          : parts.length === 1 && parts[0]!.kind === 'literal'
            ? parts[0]!.text
            : undefined;
      if (first === undefined) {
        bucket.open.push(path);
        return;
      }
      const key = decodeSegment(first);
      const list = bucket.byFirstLiteral.get(key);
      if (list) list.push(path);
      else bucket.byFirstLiteral.set(key, [path]);
    });
  }

  /** The most specific template matching the decoded segments from `from` on, with its parameters. */
  match(
    decodedSegments: readonly string[],
    from: number,
  ): { path: PathRoute; parameters: Record<string, string> } | undefined {
    const bucket = this.#buckets.get(Math.max(decodedSegments.length - from, 1));
    if (!bucket) return undefined;
    const literal: readonly PathRoute[] = bucket.byFirstLiteral.get(decodedSegments[from] ?? '') ?? NONE;
    const open = bucket.open;
    // Both lists are in specificity order: walk them as one merged list.
    let i = 0;
    let j = 0;
    while (i < literal.length || j < open.length) {
      const takeLiteral =
        j >= open.length || (i < literal.length && this.#rank.get(literal[i]!)! < this.#rank.get(open[j]!)!);
      const path = takeLiteral ? literal[i++]! : open[j++]!;
      const parameters = path.matcher.matchSegments(decodedSegments, from);
      if (parameters !== null) return { path, parameters };
    }
    return undefined;
  }
}

const NONE: readonly never[] = [];
