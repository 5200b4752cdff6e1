import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseUtcDateTime } from '../../../src-server/core/http/query-params.js';

describe('parseUtcDateTime', () => {
  it('reads ISO 8601 forms, a missing offset as UTC', () => {
    const expected = Date.UTC(2026, 2, 1, 10, 0, 0);
    expect(parseUtcDateTime('2026-03-01T10:00:00.000Z')).toBe(expected);
    expect(parseUtcDateTime('2026-03-01T10:00:00Z')).toBe(expected);
    expect(parseUtcDateTime('2026-03-01T10:00:00')).toBe(expected);
    expect(parseUtcDateTime('2026-03-01T10:00')).toBe(expected);
    expect(parseUtcDateTime('2026-03-01T12:00:00+02:00')).toBe(expected);
    expect(parseUtcDateTime('2026-03-01T05:30:00-0430')).toBe(expected);
    expect(parseUtcDateTime('2026-03-01')).toBe(Date.UTC(2026, 2, 1));
    expect(parseUtcDateTime('2026-03-01T10:00:00.1234567Z')).toBe(expected + 123);
  });

  it('refuses dates that do not exist instead of rolling them over', () => {
    for (const raw of [
      '2026-02-29T00:00:00.000Z',
      '2026-02-30',
      '2026-13-01',
      '2026-04-31T00:00:00Z',
      '2026-03-01T24:00:00Z',
      'yesterday',
      '',
    ]) {
      expect(parseUtcDateTime(raw), raw).toBeUndefined();
    }
    expect(parseUtcDateTime('2028-02-29T00:00:00.000Z')).toBe(Date.UTC(2028, 1, 29));
    expect(parseUtcDateTime('2000-02-29')).toBe(Date.UTC(2000, 1, 29));
    expect(parseUtcDateTime('2100-02-29')).toBeUndefined();
    // Not Date.UTC's two-digit years (1950).
    expect(parseUtcDateTime('0050-01-01')).toBe(new Date('0050-01-01T00:00:00Z').getTime());
    expect(parseUtcDateTime('0050-01-01T00:00:00.000Z')).toBe(new Date('0050-01-01T00:00:00Z').getTime());
  });

  it('agrees with Date for every canonical timestamp (fuzzed)', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('0000-01-01'), max: new Date('9999-12-31'), noInvalidDate: true }),
        (date) => {
          expect(parseUtcDateTime(date.toISOString())).toBe(date.getTime());
        },
      ),
    );
  });
});
