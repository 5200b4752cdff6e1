import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maskParameters } from '../../src-server/core/audit/mask-secrets.js';

const MASK = '********';

describe('masking audit parameters', () => {
  it('keeps a token endpoint readable: it is an address, not a secret', () => {
    const masked = maskParameters({
      auth: {
        kind: 'client-credentials',
        tokenEndpoint: 'https://login.example.com/acme/oauth2/token',
        token_url: 'https://login.example.com/t',
        oauthTokenUri: 'http://127.0.0.1:9/token',
        clientId: 'desk',
        clientSecret: 'cs-1',
      },
    });
    expect(masked).toEqual({
      auth: {
        kind: 'client-credentials',
        tokenEndpoint: 'https://login.example.com/acme/oauth2/token',
        token_url: 'https://login.example.com/t',
        oauthTokenUri: 'http://127.0.0.1:9/token',
        clientId: 'desk',
        clientSecret: MASK,
      },
    });
  });

  it('still masks tokens, and credentials carried inside a token endpoint', () => {
    const masked = maskParameters({
      token: 'eyJ.a.b',
      accessToken: 'at-1',
      refresh_token: 'rt-1',
      tokenEndpoint: 'https://desk:pw-1@login.example.com/t?client_secret=cs-2&tenant=acme#access_token=at-2',
      tokenUrl: 'not a url but maybe a token',
      secretTokenUrl: 'https://login.example.com/t',
      tokenEndpointHeaders: { token: 'x' },
    });
    expect(masked.token).toBe(MASK);
    expect(masked.accessToken).toBe(MASK);
    expect(masked.refresh_token).toBe(MASK);
    expect(masked.tokenUrl).toBe(MASK);
    expect(masked.secretTokenUrl).toBe(MASK);
    expect(masked.tokenEndpointHeaders).toEqual({ token: MASK });
    const endpoint = masked.tokenEndpoint as string;
    expect(endpoint).not.toContain('pw-1');
    expect(endpoint).not.toContain('cs-2');
    expect(endpoint).not.toContain('at-2');
    expect(endpoint).toContain('login.example.com/t');
    expect(endpoint).toContain('tenant=acme');
  });

  it('never shows a secret put in any part of a token endpoint URL (fuzzed)', () => {
    const secret = fc.stringMatching(/^[A-Za-z0-9]{12,24}$/).map((value) => `S3CR3T${value}`);
    fc.assert(
      fc.property(
        secret,
        fc.constantFrom('user', 'password', 'query', 'fragment', 'plain'),
        (value, where) => {
          const url =
            where === 'user'
              ? `https://${value}@idp.example.com/t`
              : where === 'password'
                ? `https://desk:${value}@idp.example.com/t`
                : where === 'query'
                  ? `https://idp.example.com/t?client_secret=${value}`
                  : where === 'fragment'
                    ? `https://idp.example.com/t#${value}`
                    : value;
          expect(JSON.stringify(maskParameters({ tokenEndpoint: url }))).not.toContain(value);
        },
      ),
    );
  });

  it('masks the password and credential query values of any URL, under any name', () => {
    const masked = maskParameters({
      baseUrl: 'https://desk:pw-9@acme.example.com/m?api_key=k-9&tenant=acme#access_token=at-9',
      connection: 'postgres://gatehouse:pg-9@db.example.com:5432/gatehouse',
      list: ['http://u:p-9@h.example.com/'],
      plain: 'https://acme.example.com/m?tenant=acme',
      prose: 'see https://u:p@h for details',
    });
    expect(masked).toEqual({
      baseUrl: `https://desk:${MASK}@acme.example.com/m?api_key=${MASK}&tenant=acme#access_token=${MASK}`,
      connection: `postgres://gatehouse:${MASK}@db.example.com:5432/gatehouse`,
      list: [`http://u:${MASK}@h.example.com/`],
      plain: 'https://acme.example.com/m?tenant=acme',
      prose: 'see https://u:p@h for details',
    });
  });
});
