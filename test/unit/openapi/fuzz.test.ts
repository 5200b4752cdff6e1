import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { parseApiDefinition } from '../../../src-server/control/apis/openapi/index.js';
import { matchPathTemplate } from '../../../src-server/core/paths/path-template.js';
import { locateJsonSyntaxError } from '../../../src-server/control/apis/openapi/json-syntax-error.js';
import { openApi30, openApi31, swagger20, toJson, toYaml } from './helpers.js';
import type { ParseApiDefinitionResult } from '../../../src-server/control/apis/openapi/index.js';

/** Never throws, returns one of the two shapes, and never hits the internal-error safety net. */
function checkWellFormed(result: ParseApiDefinitionResult): void {
  if (result.ok) {
    expect(result.definition.basePath).toMatch(/^\/(?:.*[^/])?$/);
    for (const operation of result.definition.operations) expect(operation.path.startsWith('/')).toBe(true);
    return;
  }
  expect(result.errors.length).toBeGreaterThan(0);
  for (const issue of [...result.errors, ...result.warnings]) {
    expect(typeof issue.message).toBe('string');
    expect(issue.message).not.toMatch(/^internal error/);
    expect(issue.pointer === '' || issue.pointer.startsWith('/')).toBe(true);
  }
}

function parseChecked(input: string | Buffer): ParseApiDefinitionResult {
  const result = parseApiDefinition(input);
  checkWellFormed(result);
  return result;
}

const sampleTexts = [
  'orders-api.openapi.yaml',
  'inventory-api.openapi.json',
  'legacy-billing.swagger.yaml',
].map((name) =>
  readFileSync(fileURLToPath(new URL(`../../../resources/samples/${name}`, import.meta.url)), 'utf8'),
);
const validDocuments: unknown[] = [
  openApi30(),
  openApi31(),
  swagger20(),
  ...sampleTexts.map((text) => load(text)),
];

type Path = Array<string | number>;

function allPaths(value: unknown, prefix: Path = []): Path[] {
  const paths: Path[] = [prefix];
  if (Array.isArray(value)) value.forEach((item, index) => paths.push(...allPaths(item, [...prefix, index])));
  else if (typeof value === 'object' && value !== null) {
    for (const [key, child] of Object.entries(value)) paths.push(...allPaths(child, [...prefix, key]));
  }
  return paths;
}

type Mutation =
  | { kind: 'replace'; at: number; value: unknown }
  | { kind: 'delete'; at: number }
  | { kind: 'insert'; at: number; key: string; value: unknown };

/** Applies a mutation to a deep copy; `at` picks a node (modulo the node count). */
function mutate(document: unknown, mutation: Mutation): unknown {
  const copy = structuredClone<unknown>(document);
  const paths = allPaths(copy);
  const path = paths[mutation.at % paths.length] ?? [];
  if (path.length === 0) return mutation.kind === 'replace' ? mutation.value : copy;
  const parent = path
    .slice(0, -1)
    .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], copy);
  const key = path.at(-1) as string | number;
  const container = parent as Record<string | number, unknown>;
  if (mutation.kind === 'replace') container[key] = mutation.value;
  else if (mutation.kind === 'delete' && Array.isArray(parent)) parent.splice(Number(key), 1);
  else if (mutation.kind === 'delete') delete container[key];
  else {
    const target = container[key];
    if (typeof target === 'object' && target !== null && !Array.isArray(target)) {
      // defineProperty: a plain assignment to "__proto__" would change the prototype instead.
      Object.defineProperty(target, mutation.key, {
        value: mutation.value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return copy;
}

const interestingKeys = fc.constantFrom(
  '$ref',
  'paths',
  'parameters',
  'in',
  'name',
  'required',
  'servers',
  'url',
  'variables',
  'default',
  'enum',
  'responses',
  'operationId',
  'get',
  'GET',
  'trace',
  'host',
  'basePath',
  'schemes',
  'openapi',
  'swagger',
  '/a/{id}',
  '/{x}/{y}',
  '__proto__',
  'constructor',
  'x-ext',
);
const interestingValues = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(
    '#/components/parameters/Id',
    '#/paths/~1orders~1{orderId}',
    '#',
    '#/',
    'other.yaml#/a',
    '3.0.3',
    '3.1.0',
    '2.0',
    'path',
    'query',
    '/v1',
    'https://{host}/v1',
    '{',
    '}',
    '/orders/{id}',
    null,
    [],
    {},
  ),
);
const mutationArbitrary: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), value: interestingValues }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    key: interestingKeys,
    value: interestingValues,
  }),
);

describe('fuzzing: parseApiDefinition never throws', () => {
  it('on arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => void parseChecked(text)),
      { numRuns: 400 },
    );
  });

  it('on strings built from JSON and YAML punctuation', () => {
    const token = fc.constantFrom(
      '{',
      '}',
      '[',
      ']',
      ':',
      ',',
      '"',
      "'",
      '-',
      ' ',
      '\n',
      '  ',
      '&a',
      '*a',
      '<<',
      '!',
      '#',
      '|',
      '>',
      '?',
      'openapi',
      '3.0.3',
      'paths',
      '/a',
      'get',
      '$ref',
      'null',
      '1',
      '---',
      '\t',
      '%',
    );
    fc.assert(
      fc.property(fc.array(token, { maxLength: 60 }), (tokens) => void parseChecked(tokens.join(''))),
      {
        numRuns: 400,
      },
    );
  });

  it('on arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => void parseChecked(Buffer.from(bytes))),
      {
        numRuns: 300,
      },
    );
  });

  it('on arbitrary JSON values, as JSON and as YAML', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        parseChecked(JSON.stringify(value));
        parseChecked(toYaml(value));
      }),
      { numRuns: 300 },
    );
  });

  it('on arbitrary JSON values placed where an OpenAPI document expects structure', () => {
    const keys = fc.constantFrom(
      'openapi',
      'swagger',
      'info',
      'servers',
      'paths',
      'components',
      'host',
      'basePath',
      'schemes',
    );
    fc.assert(
      fc.property(
        fc.dictionary(keys, fc.jsonValue({ maxDepth: 4 })),
        fc.constantFrom('3.0.3', '3.1.0', '2.0'),
        (fields, version) => {
          const versionField = version === '2.0' ? { swagger: version } : { openapi: version };
          parseChecked(toJson({ ...versionField, info: { title: 't', version: '1' }, ...fields }));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('on mutated valid documents', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...validDocuments),
        fc.array(mutationArbitrary, { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        (document, mutations, asYaml) => {
          const mutated = mutations.reduce<unknown>(
            (current, mutation) => mutate(current, mutation),
            document,
          );
          parseChecked(asYaml ? toYaml(mutated) : toJson(mutated));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('on valid documents with text-level damage', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...sampleTexts),
        fc.array(
          fc.record({ at: fc.nat(), remove: fc.nat({ max: 5 }), insert: fc.string({ maxLength: 4 }) }),
          {
            minLength: 1,
            maxLength: 3,
          },
        ),
        (text, edits) => {
          const damaged = edits.reduce((current, { at, remove, insert }) => {
            const position = at % (current.length + 1);
            return current.slice(0, position) + insert + current.slice(position + remove);
          }, text);
          parseChecked(damaged);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('fuzzing: helpers', () => {
  it('the JSON syntax locator agrees with JSON.parse', () => {
    const jsonish = fc.oneof(
      fc.json(),
      fc
        .array(
          fc.constantFrom(
            '{',
            '}',
            '[',
            ']',
            ':',
            ',',
            '"a"',
            '1',
            '-',
            '.5',
            'e3',
            'true',
            'nul',
            ' ',
            '\n',
            '"\\',
            '"\\u00',
          ),
          {
            maxLength: 20,
          },
        )
        .map((parts) => parts.join('')),
    );
    fc.assert(
      fc.property(jsonish, (text) => {
        let valid = true;
        try {
          JSON.parse(text);
        } catch {
          valid = false;
        }
        const located = locateJsonSyntaxError(text);
        expect(located === undefined).toBe(valid);
        if (located) expect(located.offset).toBeLessThanOrEqual(text.length);
      }),
      { numRuns: 1000 },
    );
  });

  it('a template matches the path made by filling its parameters, and gives the values back', () => {
    const segmentValue = fc.string({ minLength: 1, maxLength: 8 }).filter((value) => !value.includes('/'));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.boolean(), segmentValue), { minLength: 1, maxLength: 5 }),
        (segments) => {
          const template = segments.map(([isParameter, value], index) =>
            isParameter ? `{p${index}}` : encodeURIComponent(value).replace(/[{}]/g, ''),
          );
          const path = segments.map(([, value]) => encodeURIComponent(value));
          const expected = Object.fromEntries(
            segments.flatMap(([isParameter, value], index) => (isParameter ? [[`p${index}`, value]] : [])),
          );
          const literalSegmentsWithBraces = segments.some(
            ([isParameter, value]) => !isParameter && /[{}]/.test(value),
          );
          if (literalSegmentsWithBraces || template.some((segment) => segment === '')) return;
          expect(matchPathTemplate(`/${template.join('/')}`, `/${path.join('/')}`)).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});
