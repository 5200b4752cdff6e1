import { describe, expect, it } from 'vitest';
import { parseRequestTarget } from '../../../src-server/gateway/handler/request-target.js';

describe('request targets', () => {
  it('splits path and query and decodes segments for matching', () => {
    expect(parseRequestTarget('/orders/caf%C3%A9?x=1&y=%20')).toEqual({
      ok: true,
      path: '/orders/caf%C3%A9',
      query: 'x=1&y=%20',
      rawSegments: ['orders', 'caf%C3%A9'],
      decodedSegments: ['orders', 'café'],
    });
    expect(parseRequestTarget('/')).toMatchObject({ ok: true, path: '/', rawSegments: [''] });
  });

  it('takes only the path and query of the absolute form', () => {
    expect(parseRequestTarget('http://evil.example/orders?x=1')).toMatchObject({
      ok: true,
      path: '/orders',
      query: 'x=1',
    });
    expect(parseRequestTarget('https://evil.example')).toMatchObject({ ok: true, path: '/' });
    expect(parseRequestTarget('https://evil.example?x=1')).toMatchObject({
      ok: true,
      path: '/',
      query: 'x=1',
    });
  });

  it.each([
    '/a/../b',
    '/a/./b',
    '/a/%2e%2e/b',
    '/a/.%2E/b',
    '/a/%2E/b',
    '/..',
    '/a\\..\\b',
    '/a%2Fb',
    '/a%5cb',
    '/a%00b',
    '*',
    'evil.example/x',
    '/a#frag',
  ])('refuses %s', (target) => {
    expect(parseRequestTarget(target).ok).toBe(false);
  });

  it('keeps dots inside segments and empty segments', () => {
    expect(parseRequestTarget('/a/.../b.c/...d//')).toMatchObject({
      ok: true,
      rawSegments: ['a', '...', 'b.c', '...d', '', ''],
    });
  });
});
