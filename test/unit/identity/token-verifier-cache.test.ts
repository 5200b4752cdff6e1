import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HttpProblem } from '../../../src-server/core/http/problem.js';
import { TokenIssuer } from '../../../src-server/control/identity/token-issuer.js';
import { TokenVerifier } from '../../../src-server/control/identity/token-verifier.js';
import { VerifiedTokenCache } from '../../../src-server/control/identity/verified-token-cache.js';

const ISSUER = 'urn:gatehouse:tenant:cache-test';
const AUDIENCE = 'api://gatehouse';

async function signingKey(kid: string) {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const publicJwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
  return { kid, privateKey, publicJwk };
}

/** One key that signs and is the only one published. */
function asKeys(key: Awaited<ReturnType<typeof signingKey>>) {
  return { current: () => key };
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(HttpProblem);
  return JSON.stringify(error);
}

describe('verified bearer tokens kept by the token verifier', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('accepts a token again from the cache, and refuses it once it has expired', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const key = await signingKey('k1');
    const verifier = new TokenVerifier({
      builtIn: { issuer: ISSUER, audience: AUDIENCE, publicJwks: () => [key.publicJwk] },
      clientName: () => undefined,
    });
    const token = await new TokenIssuer(asKeys(key), ISSUER, AUDIENCE).issue({
      subject: 'user:ada',
      userName: 'ada',
      roles: ['Operator'],
      ttlSeconds: 60,
    });
    expect(await verifier.verify(token)).toMatchObject({ userName: 'ada', roles: ['Operator'] });
    expect(await verifier.verify(token)).toMatchObject({ userName: 'ada', roles: ['Operator'] });
    // Past exp and past the 30-second clock tolerance the uncached check allows.
    vi.setSystemTime(Date.now() + 92_000);
    expect(await refusal(verifier.verify(token))).toMatch(/token expired/);
  });

  it('refuses a cached token once the key that signed it is no longer published', async () => {
    const first = await signingKey('k1');
    const second = await signingKey('k2');
    let current = first.publicJwk;
    const verifier = new TokenVerifier({
      builtIn: { issuer: ISSUER, audience: AUDIENCE, publicJwks: () => [current] },
      clientName: () => undefined,
    });
    const token = await new TokenIssuer(asKeys(first), ISSUER, AUDIENCE).issue({
      subject: 'user:ada',
      userName: 'ada',
      roles: ['Operator'],
      ttlSeconds: 600,
    });
    await verifier.verify(token);
    await verifier.verify(token);
    current = second.publicJwk;
    expect(await refusal(verifier.verify(token))).toMatch(/invalid signature/);
    const fresh = await new TokenIssuer(asKeys(second), ISSUER, AUDIENCE).issue({
      subject: 'user:bob',
      userName: 'bob',
      roles: ['Auditor'],
      ttlSeconds: 600,
    });
    expect(await verifier.verify(fresh)).toMatchObject({ userName: 'bob' });
  });

  it('refuses a token with one changed signature byte even though the same header and payload are cached', async () => {
    const key = await signingKey('k1');
    const verifier = new TokenVerifier({
      builtIn: { issuer: ISSUER, audience: AUDIENCE, publicJwks: () => [key.publicJwk] },
      clientName: () => undefined,
    });
    const token = await new TokenIssuer(asKeys(key), ISSUER, AUDIENCE).issue({
      subject: 'user:ada',
      userName: 'ada',
      roles: ['Operator'],
      ttlSeconds: 600,
    });
    await verifier.verify(token);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const middle = 20;
    const flipped = signature[middle] === 'A' ? 'B' : 'A';
    const tampered = `${header}.${payload}.${signature.slice(0, middle)}${flipped}${signature.slice(middle + 1)}`;
    expect(await refusal(verifier.verify(tampered))).toMatch(/invalid signature/);
    expect(await verifier.verify(token)).toMatchObject({ userName: 'ada' });
  });
});

describe('VerifiedTokenCache', () => {
  it('keeps at most its capacity, dropping the least recently used entry', () => {
    const key = {};
    const exp = Math.floor(Date.now() / 1000) + 600;
    const cache = new VerifiedTokenCache(2);
    cache.set('a', key, { exp, sub: 'a' });
    cache.set('b', key, { exp, sub: 'b' });
    expect(cache.get('a', (k) => k === key)?.sub).toBe('a');
    cache.set('c', key, { exp, sub: 'c' });
    expect(cache.size).toBe(2);
    expect(cache.get('b', (k) => k === key)).toBeUndefined();
    expect(cache.get('a', (k) => k === key)?.sub).toBe('a');
    expect(cache.get('c', (k) => k === key)?.sub).toBe('c');
  });

  it('keeps nothing without an exp or already expired, and answers nothing for another key', () => {
    const key = {};
    const cache = new VerifiedTokenCache(10);
    cache.set('no-exp', key, { sub: 'x' });
    cache.set('expired', key, { sub: 'x', exp: Math.floor(Date.now() / 1000) - 1 });
    expect(cache.size).toBe(0);
    cache.set('t', key, { sub: 'x', exp: Math.floor(Date.now() / 1000) + 60 });
    const other = {};
    expect(cache.get('t', (k) => k === other)).toBeUndefined();
  });
});
