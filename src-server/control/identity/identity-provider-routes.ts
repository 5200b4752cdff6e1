import type { Request } from 'express';
import type { Logger } from 'pino';
import {
  ClientCredentialsRequestSchema,
  JsonWebKeySetSchema,
  OAuthErrorSchema,
  OpenIdConfigurationSchema,
  TokenResponseSchema,
} from '../../core/contracts/identity-schemas.js';
import { defineRoute, type AnyRoute } from '../http/route.js';
import type { AppRegistrations } from './app-registrations.js';
import { SIGNING_ALGORITHM } from './signing-key.js';
import type { SigningKeys } from './signing-key-set.js';
import type { TokenIssuer } from './token-issuer.js';

const TAG = 'Identity';

function origin(req: Request): string {
  return `${req.protocol}://${req.headers.host ?? 'localhost'}`;
}

function basicCredentials(req: Request): { clientId: string; clientSecret: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(req.headers.authorization ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon === -1) return undefined;
  return {
    clientId: decodeURIComponent(decoded.slice(0, colon)),
    clientSecret: decodeURIComponent(decoded.slice(colon + 1)),
  };
}

const oauthError = (
  status: number,
  error: string,
  description: string,
  headers: Record<string, string> = {},
) => ({
  status,
  body: { error, error_description: description },
  headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache', ...headers },
});

export interface IdentityProviderDeps {
  keys: Pick<SigningKeys, 'published'>;
  issuer: TokenIssuer;
  registrations: AppRegistrations;
  tokenLifetimeSeconds: () => number;
  logger: Logger;
}

/** The built-in identity provider: discovery, JWKS and the client-credentials token endpoint. */
export function identityProviderRoutes(deps: IdentityProviderDeps): AnyRoute[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/.well-known/openid-configuration',
      activity: 'Identity.Discovery',
      anonymous: true,
      tag: TAG,
      operationId: 'getOpenIdConfiguration',
      summary: "The built-in identity provider's discovery document",
      responses: [
        { status: 200, description: 'OpenID Provider metadata.', schema: OpenIdConfigurationSchema },
      ],
      handler({ req }) {
        const base = origin(req);
        return {
          body: {
            issuer: deps.issuer.issuer,
            jwks_uri: `${base}/oauth2/jwks`,
            token_endpoint: `${base}/oauth2/token`,
            grant_types_supported: ['client_credentials'],
            token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
            response_types_supported: ['token'],
            subject_types_supported: ['public'],
            id_token_signing_alg_values_supported: [SIGNING_ALGORITHM],
            claims_supported: ['sub', 'roles', 'preferred_username', 'client_id', 'app_displayname'],
            audience: deps.issuer.audience,
          },
        };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/oauth2/jwks',
      activity: 'Identity.Discovery',
      anonymous: true,
      tag: TAG,
      operationId: 'getJwks',
      summary: 'Public signing keys (JWKS)',
      responses: [
        {
          status: 200,
          description: 'JSON Web Key Set.',
          schema: JsonWebKeySetSchema,
        },
      ],
      handler() {
        return { body: { keys: deps.keys.published() } };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/oauth2/token',
      activity: 'Identity.Token',
      anonymous: true,
      tag: TAG,
      operationId: 'requestToken',
      summary: 'Client-credentials token endpoint',
      description:
        "RFC 6749 section 4.4. Authenticate with HTTP Basic or client_id/client_secret in the form body. The token carries the registration's roles.",
      body: { kind: 'form', schema: ClientCredentialsRequestSchema },
      responses: [
        { status: 200, description: 'An access token.', schema: TokenResponseSchema },
        { status: 400, description: 'RFC 6749 error.', schema: OAuthErrorSchema },
        { status: 401, description: 'Unknown client or wrong secret.', schema: OAuthErrorSchema },
      ],
      async handler({ req, body }) {
        if (body.grant_type !== 'client_credentials') {
          return oauthError(400, 'unsupported_grant_type', 'Only the client_credentials grant is supported.');
        }
        const basic = basicCredentials(req);
        const clientId = basic?.clientId ?? body.client_id;
        const clientSecret = basic?.clientSecret ?? body.client_secret;
        if (!clientId || !clientSecret) {
          return oauthError(400, 'invalid_request', 'client_id and client_secret are required.');
        }
        const registration = await deps.registrations.verifyClient(clientId, clientSecret);
        if (!registration) {
          deps.logger.warn({ clientId }, 'client authentication failed');
          return oauthError(
            401,
            'invalid_client',
            'Unknown client or wrong secret.',
            basic ? { 'WWW-Authenticate': 'Basic realm="gatehouse"' } : {},
          );
        }
        const expiresIn = deps.tokenLifetimeSeconds();
        const accessToken = await deps.issuer.issue({
          subject: registration.clientId,
          clientId: registration.clientId,
          clientName: registration.name,
          roles: registration.roles,
          ttlSeconds: expiresIn,
        });
        return {
          body: { access_token: accessToken, token_type: 'Bearer', expires_in: expiresIn },
          headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache' },
        };
      },
    }),
  ];
}
