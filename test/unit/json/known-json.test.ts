import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rememberJson, stringifyWithKnown } from '../../../src-server/core/json/known-json.js';
import {
  fromJsonChunks,
  toJsonChunks,
} from '../../../src-server/control/apis/import-pipeline/json-chunks.js';

describe('stringifyWithKnown', () => {
  it('writes what JSON.stringify writes, with remembered values anywhere it looks', () => {
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.array(fc.jsonValue(), { maxLength: 20 }),
        fc.string(),
        (value, list, name) => {
          const remembered = Object.freeze([...list]);
          rememberJson(remembered, JSON.stringify(remembered));
          const record = { name, nested: { list: remembered, value }, list: remembered, value };
          expect(stringifyWithKnown(record)).toBe(JSON.stringify(record));
          expect(stringifyWithKnown(value)).toBe(JSON.stringify(value));
        },
      ),
    );
  });

  it('uses the remembered text, not the value, and only for the value it was remembered for', () => {
    const operations = Object.freeze([{ key: 'GET /a' }]);
    rememberJson(operations, '["from the worker"]');
    expect(stringifyWithKnown({ api: { operations }, copy: [...operations] })).toBe(
      '{"api":{"operations":["from the worker"]},"copy":[{"key":"GET /a"}]}',
    );
  });

  it('leaves arrays and deeper levels alone', () => {
    const list = Object.freeze([1]);
    rememberJson(list, '["remembered"]');
    expect(stringifyWithKnown([{ list }])).toBe('[{"list":[1]}]');
    expect(stringifyWithKnown({ a: { b: { list } } })).toBe('{"a":{"b":{"list":[1]}}}');
  });
});

describe('JSON chunks', () => {
  it('gives back the list, frozen, with its whole JSON remembered', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.jsonValue(), { maxLength: 1_200 }), async (items) => {
        const back = await fromJsonChunks(toJsonChunks(items));
        expect(back).toEqual(JSON.parse(JSON.stringify(items)));
        expect(Object.isFrozen(back)).toBe(true);
        expect(stringifyWithKnown({ back })).toBe(JSON.stringify({ back }));
      }),
      { numRuns: 30 },
    );
  });
});
