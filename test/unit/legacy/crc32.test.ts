import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crc32, crc32Portable } from '../../../src-server/core/legacy/crc32.js';

describe('crc32', () => {
  it('gives the standard check value', () => {
    const data = Buffer.from('123456789');
    expect(crc32(data)).toBe(0xcbf43926);
    expect(crc32Portable(data)).toBe(0xcbf43926);
  });

  it('portable and native agree, also when continued from a previous value', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.uint8Array({ maxLength: 300 }), (a, b) => {
        expect(crc32Portable(b, crc32Portable(a))).toBe(crc32(b, crc32(a)));
        expect(crc32Portable(Buffer.concat([a, b]))).toBe(crc32(b, crc32(a)));
      }),
    );
  });
});
