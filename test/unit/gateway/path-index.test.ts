import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compareTemplateSpecificity,
  compilePathTemplate,
  decodeSegment,
} from '../../../src-server/core/paths/path-template.js';
import { PathIndex } from '../../../src-server/gateway/runtime/path-index.js';
import type { PathRoute } from '../../../src-server/gateway/runtime/route-table.js';

function pathRoutes(templates: string[]): PathRoute[] {
  return [...new Set(templates)].sort(compareTemplateSpecificity).flatMap((template) => {
    const matcher = compilePathTemplate(template);
    return matcher ? [{ template, matcher, byMethod: new Map(), servedMethods: [] }] : [];
  });
}

/** What routing did before the index: the first template in specificity order that matches. */
function scan(paths: readonly PathRoute[], segments: string[]): string | undefined {
  return paths.find((path) => path.matcher.matchSegments(segments, 0) !== null)?.template;
}

const segment = fc.constantFrom('a', 'b', 'orders', '{id}', '{x}.json', 'v{n}', '', 'café', 'caf%C3%A9');
const template = fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => `/${parts.join('/')}`);
const requestSegment = fc.constantFrom('a', 'b', 'orders', '42', 'x.json', 'v2', '', 'café');

describe('path index', () => {
  it('finds the template a scan in specificity order finds, for any templates and paths', () => {
    fc.assert(
      fc.property(
        fc.array(template, { maxLength: 12 }),
        fc.array(requestSegment, { minLength: 1, maxLength: 4 }),
        (templates, segments) => {
          const paths = pathRoutes(templates);
          const decoded = segments.map(decodeSegment);
          expect(new PathIndex(paths).match(decoded, 0)?.path.template).toBe(scan(paths, decoded));
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('matches below a base path, and among tens of thousands of templates', () => {
    const paths = pathRoutes(Array.from({ length: 50_000 }, (_, index) => `/r${index}/items/{id}`));
    const index = new PathIndex(paths);
    expect(index.match(['base', 'r49999', 'items', '7'], 1)).toMatchObject({
      path: { template: '/r49999/items/{id}' },
      parameters: { id: '7' },
    });
    expect(index.match(['base', 'r50000', 'items', '7'], 1)).toBeUndefined();
  });
});
