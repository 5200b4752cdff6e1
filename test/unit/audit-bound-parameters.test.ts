import { describe, expect, it } from 'vitest';
import { MAX_PARAMETERS_BYTES, boundParameters } from '../../src-server/core/audit/bound-parameters.js';

describe('boundParameters', () => {
  it('passes small parameters through unchanged', () => {
    const parameters = { name: 'x', roles: ['Auditor'] };
    expect(boundParameters(parameters)).toBe(parameters);
  });

  it('keeps every key of large parameters, replacing large values by their size', () => {
    const operations = Object.fromEntries(
      Array.from({ length: 3000 }, (_, i) => [`GET /items/${i}`, { target: 'x'.repeat(40) }]),
    );
    const bounded = boundParameters({ apiId: 'a1', operations });
    expect(Buffer.byteLength(JSON.stringify(bounded))).toBeLessThan(MAX_PARAMETERS_BYTES);
    expect(bounded.apiId).toBe('a1');
    expect(bounded.operations).toMatch(/^\[\d+ bytes omitted\]$/);
    expect(bounded.parametersTruncated).toEqual({ originalBytes: expect.any(Number) });
  });
});
