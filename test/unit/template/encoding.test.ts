import { describe, expect, it } from 'vitest';
import {
  configurationTextProblem,
  encodePathRemainder,
  pathValueProblem,
  isDotSegment,
  percentDecodeLenient,
  percentEncodeComponent,
  reencodeQueryString,
} from '../../../src-server/core/template/encoding.js';

describe('percent-encoding', () => {
  it('keeps only unreserved characters', () => {
    expect(percentEncodeComponent('AZaz09-._~')).toBe('AZaz09-._~');
    expect(percentEncodeComponent("/?#[]@!$&'()*+,;=% :\\")).toBe(
      '%2F%3F%23%5B%5D%40%21%24%26%27%28%29%2A%2B%2C%3B%3D%25%20%3A%5C',
    );
    expect(percentEncodeComponent('é✓😀')).toBe('%C3%A9%E2%9C%93%F0%9F%98%80');
  });

  it('turns lone surrogates into U+FFFD instead of throwing', () => {
    expect(percentEncodeComponent('a\uD800b')).toBe('a%EF%BF%BDb');
  });

  it('decodes leniently', () => {
    expect(percentDecodeLenient('a%20b%2F%zz%')).toBe('a b/%zz%');
    expect(percentDecodeLenient('%C3%A9%FF')).toBe('é\uFFFD');
  });

  it('recognises dot segments in every spelling a URL parser resolves', () => {
    for (const segment of ['.', '..', '%2e', '%2E', '.%2e', '%2e.', '%2E%2e'])
      expect(isDotSegment(segment), segment).toBe(true);
    for (const segment of ['...', '.a', '%2e%2e%2e', '', '%252e'])
      expect(isDotSegment(segment), segment).toBe(false);
  });
});

describe('path remainder', () => {
  it.each([
    ['', ''],
    ['/', '/'],
    ['/a/b', 'a/b'],
    ['a/b/', 'a/b/'],
    ['/a%20b/c%3Fd', 'a%20b/c%3Fd'],
    ['/a b/@:', 'a%20b/%40%3A'],
    ['/%zz', '%25zz'],
  ])('%j → %j', (raw, encoded) => {
    expect(encodePathRemainder(raw)).toEqual({ ok: true, text: encoded });
  });

  it.each(['/a//b', '//a', '/..', '/a/.', '/%2e%2E/x', '/a/%2e', '/a%2Fb', '/a%5Cb'])('refuses %j', (raw) => {
    expect(encodePathRemainder(raw).ok).toBe(false);
  });
});

describe('request values in a path section', () => {
  it.each(['../admin/secret.txt', 'a/b', 'a\\b', '.', '..', '%2e%2e', 'a%2Fb', '%5C'])(
    'refuses %j',
    (value) => {
      expect(pathValueProblem(value)).toBeDefined();
    },
  );

  it.each(['a', '...', 'a.b', '..a', 'x y', '%zz', 'caf\u00e9'])('takes %j', (value) => {
    expect(pathValueProblem(value)).toBeUndefined();
  });
});

describe('query string re-encoding', () => {
  it.each([
    ['a=1&b=2', 'a=1&b=2'],
    ['?a=1', '?a=1'],
    ['a=1&&b', 'a=1&b'],
    ['a=b=c', 'a=b%3Dc'],
    ['a=%2', 'a=%252'],
    ['q=a+b%20c', 'q=a+b%20c'],
    ['x=#y', 'x=%23y'],
    ['k="<>`{}|^\\', 'k=%22%3C%3E%60%7B%7D%7C%5E%5C'],
    ["k='", 'k=%27'],
    ['ids[]=1&f:x=@/?', 'ids[]=1&f:x=@/?'],
    ['n=é', 'n=%C3%A9'],
  ])('%j → %j', (raw, encoded) => {
    expect(reencodeQueryString(raw)).toBe(encoded);
  });
});

describe('configuration text rules', () => {
  it('names the offending character', () => {
    expect(configurationTextProblem('ab#c', 'path')).toMatchObject({ offset: 2 });
    expect(configurationTextProblem('a?b', 'path')).toMatchObject({ offset: 1 });
    expect(configurationTextProblem('a?b', 'query')).toBeUndefined();
    expect(configurationTextProblem('a\u007fb', 'query')).toMatchObject({ offset: 1 });
    expect(configurationTextProblem('a\r\nb', 'header')).toMatchObject({ offset: 1 });
    expect(configurationTextProblem('a#b?c', 'header')).toBeUndefined();
  });
});
