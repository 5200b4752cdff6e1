import { describe, expect, it } from 'vitest';
import {
  queryParameter,
  withoutQueryParameter,
} from '../../../src-server/core/passthrough/forwarding/index.js';

describe('raw query helpers', () => {
  it('reads the first value, exact name first, then ignoring case', () => {
    expect(queryParameter('a=1&A=2&b=%20x+y', 'a')).toBe('1');
    expect(queryParameter('A=2&b=3', 'a')).toBe('2');
    expect(queryParameter('b=%20x+y', 'b')).toBe(' x y');
    expect(queryParameter('flag&c=', 'flag')).toBe('');
    expect(queryParameter('bad=%zz', 'bad')).toBe('%zz');
    expect(queryParameter('', 'a')).toBeUndefined();
  });

  it('removes every pair of a name and leaves the rest byte for byte', () => {
    expect(withoutQueryParameter('key=s3cr3t&x=%2F1&KEY=again&y', 'key')).toBe('x=%2F1&y');
    expect(withoutQueryParameter('x=1', 'key')).toBe('x=1');
    expect(withoutQueryParameter('api%5Fkey=1&z=2', 'api_key')).toBe('z=2');
  });
});
