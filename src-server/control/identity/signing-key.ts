import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import { KEY_NAMES, type KeyStore } from '../../core/config-store/key-store.js';

export const SIGNING_ALGORITHM = 'ES256';

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

/** The built-in identity provider's signing key: generated on first start, kept sealed in the key store. */
export async function loadOrCreateSigningKey(keys: KeyStore): Promise<SigningKey> {
  const text = await keys.loadOrCreate(KEY_NAMES.signingKey, async () => {
    const { privateKey } = await generateKeyPair(SIGNING_ALGORITHM, { extractable: true });
    return JSON.stringify({
      ...(await exportJWK(privateKey)),
      kid: randomUUID(),
      alg: SIGNING_ALGORITHM,
      use: 'sig',
    });
  });
  const stored = JSON.parse(text) as JWK;
  if (!stored.kid || !stored.d) throw new Error('The stored signing key is incomplete.');
  const privateKey = (await importJWK(stored, SIGNING_ALGORITHM)) as CryptoKey;
  const { d: _private, ...publicJwk } = stored;
  return { kid: stored.kid, privateKey, publicJwk };
}
