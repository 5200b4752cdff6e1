import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  assembleTargetUrl,
  configurationOrigin,
  joinSections,
} from '../../../src-server/core/template/url-assembly.js';

/** The assembled URL is always what the URL parser makes of the joined sections, however it gets there. */

const UNITS = [
  ...'abzAZ09-._~!$&()*+,;=:@%/?#\\\'"<>`{}[]|^ \t\n\u0000é'.split(''),
  '%2e',
  '%2E',
  '..',
  '%41',
  '%zz',
  '😀',
];
const text = fc.array(fc.constantFrom(...UNITS), { maxLength: 10 }).map((parts) => parts.join(''));

describe('target URL assembly', () => {
  it.each([
    'http://127.0.0.1:3456',
    'https://Backend.Example.com:443/api/',
    'http://[::1]:8080',
    'https://h/a?',
  ])('gives the parsed URL of the joined sections (base %s)', (section1) => {
    const origin = configurationOrigin(section1);
    fc.assert(
      fc.property(fc.array(text, { maxLength: 2 }), fc.option(text, { nil: undefined }), (paths, query) => {
        if (!origin.ok) return;
        const result = assembleTargetUrl(origin, { base: origin.base, paths, query });
        if (!result.ok) return;
        const parsed = new URL(joinSections(origin.base, paths, query));
        expect(result.url).toBe(parsed.href);
        expect(parsed.origin).toBe(origin.origin);
      }),
      { numRuns: 3000 },
    );
  });
});
