import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoTime, parseIsoTime } from '../../../src-server/core/monitoring/iso-time.js';

/** The cached time formatting and parsing behave exactly like `toISOString` and `Date.parse`. */
describe('ISO times', () => {
  const instant = fc.oneof(
    fc.integer({ min: 0, max: 253_402_300_799_999 }),
    fc.integer({ min: 1_700_000_000_000, max: 1_700_000_005_000 }),
    fc.constantFrom(-1, 1.5, 253_402_300_800_000, -62_198_755_200_000),
  );

  it('formats like toISOString', () => {
    fc.assert(
      fc.property(fc.array(instant, { minLength: 1, maxLength: 20 }), (times) => {
        for (const ms of times) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 500 },
    );
  });

  it('parses the time it formatted last, and others after it, like Date.parse', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(instant, fc.string()), { minLength: 1, maxLength: 20 }), (pairs) => {
        for (const [ms, other] of pairs) {
          const text = isoTime(ms);
          expect(parseIsoTime(text)).toBe(Date.parse(text));
          expect(parseIsoTime(other)).toBe(Date.parse(other));
          expect(isoTime(ms)).toBe(new Date(ms).toISOString());
        }
      }),
      { numRuns: 500 },
    );
  });

  it('parses like Date.parse, also near the last time parsed', () => {
    const nearby = instant.chain((ms) =>
      fc.constantFrom(
        new Date(Math.trunc(ms)).toISOString(),
        `${new Date(Math.trunc(ms)).toISOString().slice(0, 20)}9x9Z`,
        `${new Date(Math.trunc(ms)).toISOString().slice(0, 23)}z`,
        new Date(Math.trunc(ms)).toISOString().replace('Z', '+01:00'),
      ),
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(nearby, fc.string()), { minLength: 1, maxLength: 20 }), (texts) => {
        for (const text of texts) expect(parseIsoTime(text)).toBe(Date.parse(text));
      }),
      { numRuns: 500 },
    );
  });
});
