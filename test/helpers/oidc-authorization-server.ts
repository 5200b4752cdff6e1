import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

export interface TestAuthorizationServer {
  issuer: string;
  /** The console's public client (PKCE, no secret); any loopback port of its redirect URI is accepted. */
  clientId: string;
  audience: string;
  close: () => Promise<void>;
}

/**
 * A real OpenID Connect provider (the `oidc-provider` library) on loopback, for the console's authorization code +
 * PKCE sign-in: its development login page takes any user name (any password), access tokens are JWTs for
 * `audience` naming the user (`preferred_username`) and the roles `rolesOf` gives.
 */
export async function startTestAuthorizationServer(
  options: { audience?: string; rolesOf?: (user: string) => string[] } = {},
): Promise<TestAuthorizationServer> {
  const audience = options.audience ?? 'api://gatehouse-team';
  const rolesOf = options.rolesOf ?? (() => ['Operator']);
  const clientId = 'gatehouse-console';
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end();
  const server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), kid: 'test-idp', alg: 'RS256', use: 'sig' };

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        application_type: 'native',
        token_endpoint_auth_method: 'none',
        redirect_uris: ['http://127.0.0.1/'],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    jwks: { keys: [signingKey] },
    cookies: { keys: ['test-only-cookie-key'] },
    pkce: { required: () => true },
    // The console posts the code from its own origin (a Control Panel on loopback).
    clientBasedCORS: (_ctx, origin) => /^http:\/\/127\.0\.0\.1:\d+$/.test(origin),
    findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id, preferred_username: id }) }),
    extraTokenClaims: (_ctx, token) =>
      'accountId' in token && typeof token.accountId === 'string'
        ? { preferred_username: token.accountId, roles: rolesOf(token.accountId) }
        : undefined,
    // No consent screen: the test user grants what the console asks for.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const accountId = ctx.oidc.session!.accountId!;
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId });
      grant.addOIDCScope('openid profile');
      grant.addResourceScope(audience, 'openid profile');
      await grant.save();
      return grant;
    },
    features: {
      devInteractions: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => audience,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({ scope: 'openid profile', audience, accessTokenFormat: 'jwt' }),
      },
    },
    ttl: { AccessToken: 600, AuthorizationCode: 60, Session: 600, Interaction: 600, Grant: 600 },
  });
  const callback = provider.callback();
  handler = (req, res) => void callback(req, res);
  return {
    issuer,
    clientId,
    audience,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
