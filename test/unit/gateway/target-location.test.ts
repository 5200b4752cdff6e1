import { describe, expect, it } from 'vitest';
import { targetLocation } from '../../../src-server/core/passthrough/forwarding/index.js';

describe('target locations', () => {
  it.each([
    'https://backend.example.com/',
    'http://127.0.0.1:8080/a/b?c=d&e',
    'http://[::1]:8443/x?',
    'http://[2001:db8::1]/y',
    'https://xn--caf-dma.example/%C3%A9?q=%20',
    'http://user:secret@host.example:81/p',
  ])('agree with URL for %s', (text) => {
    const href = new URL(text).href;
    const { protocol, host, hostname, port, pathname, search, origin } = new URL(href);
    expect(targetLocation(href)).toEqual({ href, protocol, host, hostname, port, pathname, search, origin });
  });
});
