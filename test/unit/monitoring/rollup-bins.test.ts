import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeBins,
  encodeBins,
  mergeBins,
} from '../../../src-server/core/monitoring/sql/monitoring-rollups.js';

const bins = fc
  .array(fc.tuple(fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: 1, max: 1_000_000 })), {
    maxLength: 60,
  })
  .map((pairs) => new Map(pairs));

describe('roll-up bins', () => {
  it('merges a batch into stored bins as adding the counts and encoding them again would', () => {
    fc.assert(
      fc.property(bins, bins, (stored, added) => {
        const sum = new Map(stored);
        for (const [bin, count] of added) sum.set(bin, (sum.get(bin) ?? 0) + count);
        const merged = mergeBins(encodeBins(stored), added);
        expect(Buffer.compare(merged, encodeBins(sum))).toBe(0);
        expect([...decodeBins(merged)].map(([bin]) => bin)).toEqual([...sum.keys()].sort((a, b) => a - b));
      }),
    );
  });
});
