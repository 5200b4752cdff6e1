import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { link, mkdir, open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fsyncDirectory } from '../../core/storage/durable-fs.js';
import type { ApiKeyRecord } from '../../core/model/config-model.js';

/**
 * API keys are 256 random bits, so an HMAC-SHA-256 digest under a secret key (kept beside the secret box's
 * key, not in the store) is as safe to keep as a slow hash, and the gateway verifies a key in microseconds.
 */

const KEY_FILE = 'api-keys.key';
/**
 * Keys start with `gatehouse_`: earlier ones started with `gh_`, which secret scanners take for a GitHub token.
 * Those keep working.
 */
export const API_KEY_PREFIX = 'gatehouse_';
const EARLIER_API_KEY_PREFIX = 'gh_';
/** Random characters of a key kept in clear after its prefix, to recognise it in lists and monitoring. */
const SHOWN_RANDOM_CHARACTERS = 7;
const API_KEY_FORMAT = /^(?:gatehouse_|gh_)[A-Za-z0-9_-]{43}$/;

export function generateApiKey(): string {
  return `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

export function isWellFormedApiKey(key: string): boolean {
  return API_KEY_FORMAT.test(key);
}

/** The part of a key kept in clear: its prefix and the first random characters (`gatehouse_AbC12xY`). */
export function apiKeyPrefix(key: string): string {
  const prefix = key.startsWith(EARLIER_API_KEY_PREFIX) ? EARLIER_API_KEY_PREFIX : API_KEY_PREFIX;
  return key.slice(0, prefix.length + SHOWN_RANDOM_CHARACTERS);
}

export class ApiKeyDigest {
  private constructor(private readonly secret: Buffer) {}

  static async open(keysDir: string): Promise<ApiKeyDigest> {
    return new ApiKeyDigest(await loadOrCreateSecret(keysDir));
  }

  /** base64url HMAC-SHA-256 of the key. */
  digestApiKey(key: string): string {
    return createHmac('sha256', this.secret).update(key, 'utf8').digest('base64url');
  }

  /** Constant-time comparison of a presented key with a stored digest. */
  verifyApiKey(key: string, digest: string): boolean {
    const expected = Buffer.from(digest, 'base64url');
    const actual = Buffer.from(this.digestApiKey(key), 'base64url');
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  }

  /** The unexpired record a presented key belongs to, if any. */
  findApiKey(records: readonly ApiKeyRecord[], presented: string, now: Date): ApiKeyRecord | undefined {
    if (!isWellFormedApiKey(presented)) return undefined;
    const prefix = apiKeyPrefix(presented);
    return records.find(
      (record) =>
        record.prefix === prefix &&
        (record.expiresAt === undefined || Date.parse(record.expiresAt) > now.getTime()) &&
        this.verifyApiKey(presented, record.digest),
    );
  }
}

const opening = new Map<string, Promise<Buffer>>();

/** One secret per data dir, created once even when several callers (or processes) open it at the same time. */
function loadOrCreateSecret(keysDir: string): Promise<Buffer> {
  let secret = opening.get(keysDir);
  if (!secret) {
    secret = readOrCreate(keysDir);
    opening.set(keysDir, secret);
    secret.catch(() => opening.delete(keysDir));
  }
  return secret;
}

async function readOrCreate(keysDir: string): Promise<Buffer> {
  const file = join(keysDir, KEY_FILE);
  const existing = await readSecret(file);
  if (existing) return existing;
  await mkdir(keysDir, { recursive: true, mode: 0o700 });
  const temp = join(keysDir, `.${KEY_FILE}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temp, 'wx', 0o600);
  try {
    await handle.writeFile(randomBytes(32).toString('base64'));
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    // link() fails when the file exists, so the first creator wins and everyone reads its secret.
    await link(temp, file);
    await fsyncDirectory(keysDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await rm(temp, { force: true });
  }
  const created = await readSecret(file);
  if (!created) throw new Error(`${file} could not be created.`);
  return created;
}

async function readSecret(file: string): Promise<Buffer | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const secret = Buffer.from(text.trim(), 'base64');
  if (secret.length !== 32) throw new Error(`${file} does not hold a 256-bit key.`);
  return secret;
}
