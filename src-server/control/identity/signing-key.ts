import { randomUUID } from 'node:crypto';
import { chmod, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import { writeFileAtomic } from '../../core/storage/durable-fs.js';

export const SIGNING_ALGORITHM = 'ES256';
const KEY_FILE = 'signing-key.jwk.json';

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

/**
 * The built-in identity provider's signing key, generated on first start and kept in the data dir with
 * owner-only permissions (0600, in a 0700 folder).
 */
export async function loadOrCreateSigningKey(keysDir: string): Promise<SigningKey> {
  await mkdir(keysDir, { recursive: true, mode: 0o700 });
  await chmod(keysDir, 0o700);
  const file = join(keysDir, KEY_FILE);
  let stored: JWK | undefined;
  try {
    stored = JSON.parse(await readFile(file, 'utf8')) as JWK;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new Error(`The signing key ${file} cannot be read: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
  if (!stored) {
    const { privateKey } = await generateKeyPair(SIGNING_ALGORITHM, { extractable: true });
    stored = { ...(await exportJWK(privateKey)), kid: randomUUID(), alg: SIGNING_ALGORITHM, use: 'sig' };
    await writeFileAtomic(file, JSON.stringify(stored), 0o600);
  }
  await chmod(file, 0o600);
  if (!stored.kid || !stored.d) throw new Error(`The signing key ${file} is incomplete.`);
  const privateKey = (await importJWK(stored, SIGNING_ALGORITHM)) as CryptoKey;
  const { d: _private, ...publicJwk } = stored;
  return { kid: stored.kid, privateKey, publicJwk };
}
