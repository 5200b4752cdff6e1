import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../storage/durable-fs.js';

export const SECRETS_KEY_FILE = 'secrets.key';
const VERSION = 'v1';

/** The key file: `Secrets:KeyFile` when set, else `secrets.key` in the data dir's keys folder. */
export function secretsKeyFile(keysDir: string, configured: string): string {
  return configured.trim() || join(keysDir, SECRETS_KEY_FILE);
}

/**
 * Seals secret values (secret environment-variable members, literal credential header values of passthroughs,
 * key material) before they reach the database, with AES-256-GCM under a key kept in a file (0600) — never in
 * the database, so a dump of it reveals no secret.
 */
export class SecretBox {
  private constructor(private readonly key: Buffer) {}

  /** Reads the key file, creating it (owner-only) with a new random key when it does not exist. */
  static async open(file: string): Promise<SecretBox> {
    await mkdir(dirname(file), { recursive: true, mode: 0o700 });
    let key: Buffer;
    try {
      key = Buffer.from((await readFile(file, 'utf8')).trim(), 'base64');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      key = randomBytes(32);
      await writeFileAtomic(file, key.toString('base64'), 0o600);
    }
    if (key.length !== 32) throw new Error(`${file} does not hold a 256-bit key.`);
    await chmod(file, 0o600);
    return new SecretBox(key);
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [
      VERSION,
      iv.toString('base64url'),
      cipher.getAuthTag().toString('base64url'),
      body.toString('base64url'),
    ].join(':');
  }

  unseal(sealed: string): string {
    const [version, iv, tag, body] = sealed.split(':');
    if (version !== VERSION || !iv || !tag || body === undefined)
      throw new Error('Unrecognised sealed value.');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }
}
