import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TargetSections, TemplateCompileContext } from '../../../src-server/core/template/index.js';
import { compileTarget } from '../../../src-server/core/template/index.js';
import { pathValueProblem } from '../../../src-server/core/template/encoding.js';
import { allOperationsContext, context, makeScope } from './scope-fixtures.js';

/**
 * Fuzzing with hostile request data: whatever the path and query hold, the target stays on the
 * configured origin and has exactly the path segments and query parameters the template places.
 */

const ORIGIN = 'https://backend.example.com:8443';
const RUNS = 1500;

const HOSTILE_FRAGMENTS = [
  '..',
  '.',
  '%2e%2e',
  '%2E',
  '.%2e',
  '//evil.com',
  '@evil.com',
  '\\\\evil.com',
  '\\',
  ':8443',
  'http://evil.com',
  '\r\n',
  '\0',
  '\t',
  '#',
  '?',
  '&',
  '=',
  '+',
  '%',
  '%25',
  '%2F',
  '/',
  ' ',
  'é',
  '😀',
  '\uD800',
  '\uDFFF',
  'a',
  'evil.com',
  '[::1]',
  '\u3002',
  '\uFF0E',
];

const hostile = fc.oneof(
  fc.array(fc.constantFrom(...HOSTILE_FRAGMENTS), { maxLength: 6 }).map((parts) => parts.join('')),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
);

function compile(
  sections: Omit<TargetSections, 'section1'> & { section1?: string },
  compileContext: TemplateCompileContext,
) {
  const compiled = compileTarget({ section1: ORIGIN, ...sections }, compileContext);
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.errors));
  return compiled.target;
}

/** The parameters a WHATWG URL parser reads from a raw query (controls and '#' escaped so the parser keeps them). */
function parsedLikeABrowser(rawQuery: string): URLSearchParams {
  const escaped = rawQuery.replace(
    /[\0-\x20\x7f#]/g,
    (character) => `%${character.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
  return new URL(`https://oracle.example/?${escaped}`).searchParams;
}

function pathSegments(url: URL): string[] {
  return url.pathname.split('/').slice(1);
}

describe('request data cannot change the origin, path segments or query parameters', () => {
  it('single values in path and query sections', () => {
    const target = compile(
      {
        section2: 'api',
        section3: 'items/{{#api.QueryParameters.id}}',
        section4: 'q={{#api.QueryParameters.q}}&fixed=1',
      },
      context,
    );
    fc.assert(
      fc.property(hostile, hostile, (id, q) => {
        const queryString = new URLSearchParams({ id, q }).toString();
        const incoming = new URLSearchParams(queryString);
        const rendered = target.render(makeScope({ queryString }));
        if (!rendered.ok) {
          expect(rendered.error.kind).toBe('unsafe-value');
          const value = incoming.get('id')!;
          expect(['', '.', '..'].includes(value) || pathValueProblem(value) !== undefined, value).toBe(true);
          return;
        }
        const url = new URL(rendered.url);
        expect(url.origin).toBe(ORIGIN);
        expect(url.hash).toBe('');
        const segments = pathSegments(url);
        expect(segments.slice(0, 2)).toEqual(['api', 'items']);
        // An empty value leaves an empty last segment: no segment is added or removed.
        expect(segments).toHaveLength(3);
        expect(decodeURIComponent(segments[2] as string)).toBe(incoming.get('id'));
        expect(decodeURIComponent(segments[2] as string)).not.toMatch(/[/\\]/);
        expect([...url.searchParams.keys()]).toEqual(['q', 'fixed']);
        expect(url.searchParams.get('q')).toBe(incoming.get('q'));
        expect(url.searchParams.get('fixed')).toBe('1');
        expect(rendered.maskedUrl).toBe(rendered.url);
      }),
      { numRuns: RUNS },
    );
  });

  it('path parameters and expressions over request data', () => {
    const target = compile(
      {
        section2: '{{#api.OperationPath.id}}',
        section3: 'v-{{ #api.QueryParameters.name.ToLower().Trim() }}.json',
        section4:
          'a={{ Uri.EscapeDataString(#api.QueryParameters.a ?? "") }}&b={{ #api.QueryParameters.a + "!" }}',
      },
      context,
    );
    fc.assert(
      fc.property(hostile, hostile, hostile, (id, name, a) => {
        const queryString = new URLSearchParams({ name, a }).toString();
        const incoming = new URLSearchParams(queryString);
        const rendered = target.render(makeScope({ queryString, pathParameters: { id } }));
        if (!rendered.ok) {
          expect(rendered.error.kind).toBe('unsafe-value');
          return;
        }
        const url = new URL(rendered.url);
        expect(url.origin).toBe(ORIGIN);
        const segments = pathSegments(url);
        expect(segments).toHaveLength(id === '' ? 1 : 2);
        expect(decodeURIComponent(segments.at(-1) as string)).toBe(
          `v-${(incoming.get('name') as string).toLowerCase().trim()}.json`,
        );
        expect([...url.searchParams.keys()]).toEqual(['a', 'b']);
        expect(url.searchParams.get('a')).toBe(incoming.get('a'));
        expect(url.searchParams.get('b')).toBe(`${incoming.get('a')}!`);
      }),
      { numRuns: RUNS },
    );
  });

  it('All operations: the incoming path remainder and the whole query string', () => {
    const target = compile(
      { section2: 'backend', section3: '{{#api.OperationPath}}', section4: '{{#api.QueryParameters}}' },
      allOperationsContext,
    );
    const remainder = fc.array(hostile, { maxLength: 4 }).map((segments) => `/${segments.join('/')}`);
    const rawQuery = fc
      .array(fc.oneof(hostile, fc.constantFrom('&', '=', 'k=v', 'a=1&b=2')), { maxLength: 5 })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(remainder, rawQuery, (operationPath, queryString) => {
        const rendered = target.render(makeScope({ operationPath, queryString }));
        if (!rendered.ok) {
          expect(rendered.error.kind).toBe('unsafe-value');
          return;
        }
        const url = new URL(rendered.url);
        expect(url.origin).toBe(ORIGIN);
        expect(url.hash).toBe('');
        const incomingSegments = operationPath.slice(1).split('/');
        const expectedSegments = ['backend', ...incomingSegments];
        expect(pathSegments(url)).toHaveLength(expectedSegments.length);
        expect([...url.searchParams]).toEqual([...parsedLikeABrowser(queryString)]);
      }),
      { numRuns: RUNS },
    );
  });

  it('an origin from #env with request data right after section 1', () => {
    const target = compile(
      { section1: '{{#env.backend.url}}', section2: '{{#api.QueryParameters.x}}', section3: '' },
      context,
    );
    fc.assert(
      fc.property(hostile, (x) => {
        const rendered = target.render(makeScope({ queryString: new URLSearchParams({ x }).toString() }));
        if (rendered.ok) {
          expect(new URL(rendered.url).origin).toBe('https://backend.example.com');
          expect(pathSegments(new URL(rendered.url)).length).toBeLessThanOrEqual(1);
        } else {
          expect(rendered.error.kind).toBe('unsafe-value');
        }
      }),
      { numRuns: RUNS },
    );
  });
});
