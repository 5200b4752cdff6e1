import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonRefIndex } from '../../../src-server/control/apis/openapi/ref-index.js';
import { scanDocument } from '../../../src-server/control/apis/openapi/document-scan.js';
import { parseApiDefinition } from '../../../src-server/control/apis/openapi/index.js';
import { parseSuffixConditions, splitPathKey } from '../../../src-server/core/paths/request-match.js';

/** JSON values with `$ref` members sprinkled in, some strings full of quotes, braces and backslashes. */
const tricky = fc.string({
  unit: fc.constantFrom('a', '"', '\\', '{', '}', '[', ']', '$', 'r', 'e', 'f', ':', ' ', '/', '#'),
});
const withRefs = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    tricky,
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(tricky, tie('value'), { maxKeys: 4 }),
    fc.record({ $ref: tricky }),
  ),
})).value;

describe('fuzz: the $ref index read from JSON text', () => {
  it('finds exactly the $refs a walk of the parsed value finds, and the same depth verdict', () => {
    fc.assert(
      fc.property(withRefs, fc.integer({ min: 1, max: 6 }), (value, maxDepth) => {
        const text = JSON.stringify(value);
        const walked = scanDocument(value, {
          maxDepth,
          maxAliasExpansion: Infinity,
          valuesMayBeShared: false,
        });
        const indexed = jsonRefIndex(text, value, maxDepth);
        expect(indexed.ok).toBe(walked.ok);
        if (walked.ok && indexed.ok) {
          const fromWalk = new Set(walked.refSites.map((site) => site.ref));
          // The text may also show "$ref" members the walk skips (a $ref that is no string is neither).
          expect([...indexed.index.refs].sort()).toEqual([...fromWalk].sort());
          expect(indexed.index.sitesOf(fromWalk)).toEqual(walked.refSites);
        }
      }),
      { numRuns: 400 },
    );
  });
});

describe('fuzz: path keys with a query or fragment part', () => {
  it('never throws, and every operation the parser keeps has a template that starts with "/"', () => {
    const key = fc
      .tuple(fc.constantFrom('/', '/a/{id}', '/a', 'b', '/{x}/c'), fc.constantFrom('', '?', '#'), fc.string())
      .map(([path, marker, rest]) => `${path}${marker}${rest}`);
    fc.assert(
      fc.property(fc.uniqueArray(key, { maxLength: 6 }), fc.constantFrom('get', 'post'), (keys, method) => {
        expect(() =>
          keys.forEach((item) => parseSuffixConditions(splitPathKey(item).suffix?.text ?? '')),
        ).not.toThrow();
        const paths = Object.fromEntries(
          keys.map((item) => [item, { [method]: { responses: { '200': { description: 'ok' } } } }]),
        );
        const result = parseApiDefinition(
          JSON.stringify({ openapi: '3.0.3', info: { title: 'F', version: '1' }, paths }),
        );
        if (!result.ok) {
          expect(result.errors.every((error) => !error.message.startsWith('internal error'))).toBe(true);
          return;
        }
        for (const operation of result.definition.operations)
          expect(splitPathKey(operation.path).template.startsWith('/')).toBe(true);
        const exposed = new Set(result.definition.operations.map((operation) => operation.path));
        for (const skipped of result.definition.skipped)
          expect(exposed.has(skipped.path) && skipped.method === method.toUpperCase()).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});
