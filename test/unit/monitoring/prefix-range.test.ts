import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { prefixRange } from '../../../src-server/core/monitoring/sql/monitoring-filter.js';

/** How both engines compare the path index: UTF-8 bytes (code points), not JavaScript's UTF-16 units. */
function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

function inRange(value: string, range: { start: string; end?: string }): boolean {
  return byteOrder(value, range.start) >= 0 && (range.end === undefined || byteOrder(value, range.end) < 0);
}

// Few characters, with the edges that matter: the highest code point, the last before the surrogates, astral ones.
const char = fc.constantFrom(
  '/',
  'a',
  'b',
  '\u00e9',
  '\ud7ff',
  '\ue000',
  '\uffff',
  '\u{10000}',
  '\u{10ffff}',
);
const text = fc.array(char, { maxLength: 5 }).map((chars) => chars.join(''));

describe('prefixRange', () => {
  it('holds exactly the strings that start with the prefix, in byte order', () => {
    fc.assert(
      fc.property(text, text, (prefix, rest) => {
        const range = prefixRange(prefix);
        expect(inRange(prefix + rest, range)).toBe(true);
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(text, text, (prefix, other) => {
        expect(inRange(other, prefixRange(prefix))).toBe(other.startsWith(prefix));
      }),
      { numRuns: 2000 },
    );
  });

  it('increments the last code point, skipping the surrogates, and has no end after the highest ones', () => {
    expect(prefixRange('/orders/1')).toEqual({ start: '/orders/1', end: '/orders/2' });
    expect(prefixRange('/a\ud7ff')).toEqual({ start: '/a\ud7ff', end: '/a\ue000' });
    expect(prefixRange('/a\u{10ffff}')).toEqual({ start: '/a\u{10ffff}', end: '/b' });
    expect(prefixRange('\u{10ffff}\u{10ffff}')).toEqual({ start: '\u{10ffff}\u{10ffff}' });
  });
});
