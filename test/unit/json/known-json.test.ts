import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeWithKnown, holdsKnownJson, rememberJson } from '../../../src-server/core/json/known-json.js';
import {
  fromJsonChunks,
  toJsonChunks,
} from '../../../src-server/control/apis/import-pipeline/json-chunks.js';

const stringifyWithKnown = (value: unknown) => encodeWithKnown(value).toString('utf8');

describe('encodeWithKnown, remembered text', () => {
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

describe('encodeWithKnown, remembered bytes', () => {
  it('writes the UTF-8 of what JSON.stringify writes, remembered bytes or not', () => {
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.array(fc.jsonValue(), { maxLength: 20 }),
        fc.string({ unit: 'grapheme' }),
        fc.boolean(),
        (value, list, name, withBytes) => {
          const remembered = Object.freeze([...list]);
          const json = JSON.stringify(remembered);
          rememberJson(remembered, withBytes ? Buffer.from(json) : json);
          const record = { name, nested: { list: remembered, value }, list: remembered, value };
          expect(encodeWithKnown(record).toString('utf8')).toBe(JSON.stringify(record));
          expect(encodeWithKnown(value).toString('utf8')).toBe(JSON.stringify(value));
          expect(holdsKnownJson(record)).toBe(true);
          expect(holdsKnownJson(value)).toBe(false);
        },
      ),
    );
  });

  it('splices in the remembered bytes as they are', () => {
    const operations = Object.freeze([{ key: 'GET /a' }]);
    rememberJson(operations, Buffer.from('["bytes"]'));
    expect(encodeWithKnown({ api: { operations }, é: 1 }).toString('utf8')).toBe(
      '{"api":{"operations":["bytes"]},"é":1}',
    );
  });
});

describe('JSON chunks', () => {
  it('gives back the list, frozen, with its whole JSON remembered', async () => {
    // Strings of any code points: the chunks' bounds are byte offsets in UTF-8, where a character may take four.
    const item = fc.oneof(fc.jsonValue(), fc.string({ unit: 'binary', maxLength: 40 }));
    await fc.assert(
      fc.asyncProperty(fc.array(item, { maxLength: 1_200 }), async (items) => {
        const chunks = toJsonChunks(items);
        expect(Buffer.from(chunks.utf8).toString('utf8')).toBe(JSON.stringify(items));
        const back = await fromJsonChunks(chunks);
        expect(back).toEqual(JSON.parse(JSON.stringify(items)));
        expect(Object.isFrozen(back)).toBe(true);
        expect(stringifyWithKnown({ back })).toBe(JSON.stringify({ back }));
      }),
      { numRuns: 30 },
    );
  });
});
