import { SignJWT, decodeJwt, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOrCreateSigningKey } from '../../src-server/control/identity/signing-key.js';
import { startTestOidcProvider, type TestOidcProvider } from '../helpers/oidc-provider.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

describe('management API authentication', () => {
  let server: TestServer;
  let idp: TestOidcProvider;

  beforeAll(async () => {
    idp = await startTestOidcProvider();
    server = await startTestServer({
      settings: {
        'Auth:External:Authority': idp.issuer,
        'Auth:External:Audience': 'api://external-test',
        'Auth:External:KeyRefreshCooldownSeconds': 0,
      },
    });
  });
  afterAll(async () => {
    await server.close();
    await idp.close();
  });

  async function expectInvalidToken(response: Response, description: RegExp) {
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const challenge = response.headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(/^Bearer error="invalid_token"/);
    expect(challenge).toMatch(description);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ status: 401, title: 'Unauthorized', code: 'GH_ERR_INVALID_TOKEN' });
    expect(typeof body.traceId).toBe('string');
  }

  /** RFC 6750 §3.1: a request with no bearer token gets a challenge without error information. */
  async function expectNoToken(response: Response) {
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    expect(await response.json()).toMatchObject({ status: 401, code: 'GH_ERR_UNAUTHENTICATED' });
  }

  it('refuses a request without a token, with a challenge that names no error', async () => {
    await expectNoToken(await server.api('/api/v1/activities', { token: null }));
    const head = await server.api('/api/v1/activities', { method: 'HEAD', token: null });
    expect([head.status, head.headers.get('www-authenticate')]).toEqual([401, 'Bearer']);
  });

  it('takes another scheme, or a Bearer header without a token, for no token at all', async () => {
    for (const authorization of ['Basic abc', 'Bearer', 'Bearer   ']) {
      await expectNoToken(
        await server.api('/api/v1/activities', { token: null, headers: { Authorization: authorization } }),
      );
    }
  });

  it('refuses a malformed bearer token', async () => {
    await expectInvalidToken(
      await server.api('/api/v1/activities', { token: null, headers: { Authorization: 'Bearer a b' } }),
      /malformed authorization header/,
    );
    await expectInvalidToken(
      await server.api('/api/v1/activities', { token: 'not.a.jwt' }),
      /malformed token/,
    );
  });

  it('refuses an expired token', async () => {
    const key = await loadOrCreateSigningKey(server.gatehouse.keys);
    const valid = await server.token(['Operator']);
    const claims = decodeJwt(valid);
    const expired = await new SignJWT({ roles: ['Operator'], preferred_username: 'late' })
      .setProtectedHeader({ alg: 'ES256', kid: key.kid })
      .setIssuer(String(claims.iss))
      .setAudience(String(claims.aud))
      .setSubject('user:late')
      .setExpirationTime(Math.floor(Date.now() / 1000) - 120)
      .sign(key.privateKey);
    await expectInvalidToken(await server.api('/api/v1/activities', { token: expired }), /token expired/);
    const expiredExternal = await idp.sign(
      { preferred_username: 'ext', roles: ['Auditor'] },
      { expiresIn: '-2m' },
    );
    await expectInvalidToken(
      await server.api('/api/v1/activities', { token: expiredExternal }),
      /token expired/,
    );
  });

  it('refuses a token signed by another key', async () => {
    const claims = decodeJwt(await server.token(['Operator']));
    const { privateKey } = await generateKeyPair('ES256');
    const forged = await new SignJWT({ roles: ['Operator'] })
      .setProtectedHeader({ alg: 'ES256' })
      .setIssuer(String(claims.iss))
      .setAudience(String(claims.aud))
      .setSubject('user:forger')
      .setExpirationTime('5m')
      .sign(privateKey);
    await expectInvalidToken(await server.api('/api/v1/activities', { token: forged }), /invalid signature/);
  });

  it('refuses a token of an untrusted issuer and one for another audience', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    const stranger = await new SignJWT({ roles: ['Operator'] })
      .setProtectedHeader({ alg: 'ES256' })
      .setIssuer('https://stranger.example')
      .setAudience('api://gatehouse')
      .setSubject('x')
      .setExpirationTime('5m')
      .sign(privateKey);
    await expectInvalidToken(await server.api('/api/v1/activities', { token: stranger }), /wrong issuer/);
    const otherAudience = await idp.sign(
      { preferred_username: 'ext', roles: ['Auditor'] },
      { audience: 'api://other' },
    );
    await expectInvalidToken(
      await server.api('/api/v1/activities', { token: otherAudience }),
      /wrong audience/,
    );
  });

  it('answers 403 when the roles do not grant the activity', async () => {
    const response = await server.api('/api/v1/app-registrations', { roles: ['Administrator'] });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({
      status: 403,
      code: 'GH_ERR_FORBIDDEN',
      detail: expect.stringContaining('AppRegistrations.View'),
    });
    expect((await server.api('/api/v1/app-registrations', { roles: ['Operator'] })).status).toBe(200);
    expect((await server.api('/api/v1/activities', { roles: ['Auditor'] })).status).toBe(200);
    expect((await server.api('/api/v1/activities', { roles: [] })).status).toBe(403);
  });

  it('accepts tokens of the external identity provider, with keys fetched once and cached', async () => {
    const token = await idp.sign({ preferred_username: 'ext.user@example.com', roles: ['Auditor'] });
    const me = await server.api('/api/v1/me', { token });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({
      userName: 'ext.user@example.com',
      roles: ['Auditor'],
      kind: 'user',
    });
    const before = { ...idp.requests };
    for (let i = 0; i < 3; i++) expect((await server.api('/api/v1/me', { token })).status).toBe(200);
    expect(idp.requests).toEqual(before);
    expect(before.discovery).toBe(1);
    expect(before.jwks).toBe(1);
  });

  it('picks up a rotated key of the external provider', async () => {
    await idp.rotateKey();
    const token = await idp.sign({ upn: 'rotated@example.com', roles: ['Auditor'] });
    const me = await server.api('/api/v1/me', { token });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ userName: 'rotated@example.com' });
  });

  it('serves the discovery document and JWKS of the built-in provider', async () => {
    const discovery = (await (
      await fetch(`${server.url}/.well-known/openid-configuration`)
    ).json()) as Record<string, string>;
    expect(discovery.issuer).toMatch(/^urn:gatehouse:tenant:/);
    expect(discovery.token_endpoint).toBe(`${server.url}/oauth2/token`);
    const jwks = (await (await fetch(discovery.jwks_uri!)).json()) as { keys: Record<string, unknown>[] };
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).not.toHaveProperty('d');
  });

  it('refreshes a console session token, but not an external or client token', async () => {
    const refreshed = await server.api('/api/v1/session/refresh', {
      method: 'POST',
      roles: ['Auditor'],
      userName: 'support',
    });
    expect(refreshed.status).toBe(200);
    const session = (await refreshed.json()) as { accessToken: string; userName: string; roles: string[] };
    expect(session).toMatchObject({ userName: 'support', roles: ['Auditor'] });
    const me = await server.api('/api/v1/me', { token: session.accessToken });
    expect(await me.json()).toMatchObject({ userName: 'support', roles: ['Auditor'] });
    const external = await idp.sign({ preferred_username: 'ext', roles: ['Auditor'] });
    expect((await server.api('/api/v1/session/refresh', { method: 'POST', token: external })).status).toBe(
      422,
    );
  });

  it('gives a user of the built-in provider a one-time sign-in link for itself, but not an external token', async () => {
    const created = await server.api('/api/v1/session/sign-in-links', {
      method: 'POST',
      roles: ['Auditor'],
      userName: 'support',
    });
    expect(created.status).toBe(200);
    const link = (await created.json()) as { signInUrl: string; expiresAt: string };
    expect(link.signInUrl).toMatch(new RegExp(`^${server.url}/#signin=[A-Za-z0-9_-]{20,}$`));
    expect(Date.parse(link.expiresAt) - Date.now()).toBeGreaterThan(9 * 60_000);
    const ticket = link.signInUrl.split('#signin=')[1];
    const signIn = () =>
      fetch(`${server.url}/api/v1/session/sign-in`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ ticket }),
      });
    const session = await signIn();
    expect(await session.json()).toMatchObject({ userName: 'support', roles: ['Auditor'] });
    expect((await signIn()).status).toBe(401);

    const external = await idp.sign({ preferred_username: 'ext', roles: ['Operator'] });
    const refused = await server.api('/api/v1/session/sign-in-links', { method: 'POST', token: external });
    expect(refused.status).toBe(422);
    expect(await refused.json()).toMatchObject({ code: 'GH_ERR_SIGN_IN_LINK_NOT_ALLOWED' });
  });
});
