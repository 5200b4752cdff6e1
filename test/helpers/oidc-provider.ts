import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose';

export interface TestOidcProvider {
  issuer: string;
  /** Signs a token with the provider's current key. */
  sign: (
    claims: Record<string, unknown>,
    options?: { audience?: string; expiresIn?: string; issuer?: string },
  ) => Promise<string>;
  /** Replaces the signing key (the JWKS then serves only the new one). */
  rotateKey: () => Promise<void>;
  requests: { discovery: number; jwks: number };
  close: () => Promise<void>;
}

/** A small but real OpenID Connect provider on loopback: discovery document and JWKS over HTTP. */
export async function startTestOidcProvider(): Promise<TestOidcProvider> {
  let key: { privateKey: CryptoKey; publicJwk: JWK; kid: string };
  let generation = 0;
  const newKey = async () => {
    const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
    generation++;
    const kid = `test-key-${generation}`;
    key = { privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' }, kid };
  };
  await newKey();
  const requests = { discovery: 0, jwks: 0 };
  let issuer = '';
  const server: Server = createServer((req, res) => {
    res.setHeader('Content-Type', 'application/json');
    if (req.url === '/.well-known/openid-configuration') {
      requests.discovery++;
      res.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/keys`, token_endpoint: `${issuer}/token` }));
    } else if (req.url === '/keys') {
      requests.jwks++;
      res.end(JSON.stringify({ keys: [key.publicJwk] }));
    } else {
      res.statusCode = 404;
      res.end('{}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    requests,
    async sign(claims, options = {}) {
      return new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: key.kid })
        .setIssuer(options.issuer ?? issuer)
        .setAudience(options.audience ?? 'api://external-test')
        .setIssuedAt()
        .setExpirationTime(options.expiresIn ?? '10m')
        .sign(key.privateKey);
    },
    rotateKey: newKey,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
