import { describe, expect, it } from 'vitest';
import {
  compileCors,
  judgeOrigin,
  preflightHeaders,
  responseCorsHeaders,
} from '../../../src-server/gateway/cors/cors.js';

const rules = (allowedOrigins: string[], allowCredentials = false, exposeHeaders: string[] = []) =>
  compileCors({ enabled: true, allowedOrigins, allowCredentials, maxAgeSeconds: 300, exposeHeaders })!;

describe('CORS origins', () => {
  it('is off when the entry says so', () => {
    expect(
      compileCors({
        enabled: false,
        allowedOrigins: ['*'],
        allowCredentials: false,
        maxAgeSeconds: 1,
        exposeHeaders: [],
      }),
    ).toBeUndefined();
  });

  it('echoes an exactly listed origin, whatever its case, and only that one', () => {
    const exact = rules(['https://app.example.com']);
    expect(judgeOrigin(exact, 'https://app.example.com')).toEqual({
      allowed: true,
      allowOrigin: 'https://app.example.com',
      credentials: false,
    });
    expect(judgeOrigin(exact, 'https://APP.example.com')).toMatchObject({
      allowed: true,
      allowOrigin: 'https://APP.example.com',
    });
    expect(judgeOrigin(exact, 'http://app.example.com').allowed).toBe(false);
    expect(judgeOrigin(exact, 'https://app.example.com:8443').allowed).toBe(false);
    expect(judgeOrigin(exact, 'https://app.example.com.evil.com').allowed).toBe(false);
    expect(judgeOrigin(exact, 'null').allowed).toBe(false);
  });

  it('matches wildcard subdomains at any depth, same scheme and port, never the bare domain', () => {
    const wildcard = rules(['https://*.example.com']);
    expect(judgeOrigin(wildcard, 'https://a.example.com')).toMatchObject({
      allowed: true,
      allowOrigin: 'https://a.example.com',
    });
    expect(judgeOrigin(wildcard, 'https://a.b.example.com').allowed).toBe(true);
    expect(judgeOrigin(wildcard, 'https://example.com').allowed).toBe(false);
    expect(judgeOrigin(wildcard, 'https://evilexample.com').allowed).toBe(false);
    expect(judgeOrigin(wildcard, 'http://a.example.com').allowed).toBe(false);
    expect(judgeOrigin(wildcard, 'https://a.example.com:444').allowed).toBe(false);
    expect(judgeOrigin(wildcard, 'https://a.example.com.evil.net').allowed).toBe(false);
  });

  it("answers '*' to any origin, and never pairs it with credentials", () => {
    expect(judgeOrigin(rules(['*'], true), 'https://x.test')).toEqual({
      allowed: true,
      allowOrigin: '*',
      credentials: false,
    });
    // An explicitly listed origin still gets itself echoed with credentials.
    expect(judgeOrigin(rules(['*', 'https://app.test'], true), 'https://app.test')).toEqual({
      allowed: true,
      allowOrigin: 'https://app.test',
      credentials: true,
    });
    // A wildcard subdomain is not an explicit listing.
    expect(judgeOrigin(rules(['https://*.app.test'], true), 'https://a.app.test')).toMatchObject({
      credentials: false,
    });
  });

  it('builds preflight answers: methods, echoed request headers, max age; nothing for a refused origin', () => {
    const headers = preflightHeaders(
      rules(['https://app.test'], true),
      'https://app.test',
      ['GET', 'POST'],
      'X-Trace, content-type',
    );
    expect(Object.fromEntries(headers)).toEqual({
      Vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
      'Access-Control-Allow-Origin': 'https://app.test',
      'Access-Control-Allow-Credentials': 'true',
      'Access-Control-Allow-Methods': 'GET, POST',
      'Access-Control-Allow-Headers': 'X-Trace, content-type',
      'Access-Control-Max-Age': '300',
    });
    const refused = preflightHeaders(rules(['https://app.test']), 'https://evil.test', ['GET'], undefined);
    expect(refused.map(([name]) => name)).toEqual(['Vary']);
    // A header list that is not a list of tokens is not echoed.
    const odd = preflightHeaders(rules(['https://app.test']), 'https://app.test', ['GET'], 'a b\r\nX: y');
    expect(odd.map(([name]) => name)).not.toContain('Access-Control-Allow-Headers');
  });

  it('adds the allow-origin and Vary to actual responses, only Vary for others, and remembers the answer', () => {
    const exact = rules(['https://app.test']);
    expect(responseCorsHeaders(exact, 'https://app.test')).toEqual([
      ['Access-Control-Allow-Origin', 'https://app.test'],
      ['Vary', 'Origin'],
    ]);
    expect(responseCorsHeaders(exact, 'https://app.test')).toBe(
      responseCorsHeaders(exact, 'https://app.test'),
    );
    expect(responseCorsHeaders(exact, 'https://other.test')).toEqual([['Vary', 'Origin']]);
    expect(responseCorsHeaders(exact, undefined)).toEqual([['Vary', 'Origin']]);
  });

  it('lets browsers read the headers the entry exposes, on allowed origins only', () => {
    const exposing = rules(['https://app.test'], false, ['ETag', 'Location', 'X-Total-Count']);
    expect(responseCorsHeaders(exposing, 'https://app.test')).toContainEqual([
      'Access-Control-Expose-Headers',
      'ETag, Location, X-Total-Count',
    ]);
    expect(responseCorsHeaders(exposing, 'https://other.test')).toEqual([['Vary', 'Origin']]);
  });
});
