import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { KEY_NAMES, type KeyStore } from '../../core/config-store/key-store.js';
import type { ApiKeyRecord } from '../../core/model/config-model.js';

/**
 * API keys are 256 random bits, so an HMAC-SHA-256 digest under a secret key (sealed in the key store, not in the
 * configuration) is as safe to keep as a slow hash, and the gateway verifies a key in microseconds.
 */

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

  static async open(keys: KeyStore): Promise<ApiKeyDigest> {
    return ApiKeyDigest.fromSecret(await ApiKeyDigest.loadSecret(keys));
  }

  /** The stored key (base64), created the first time: what a gateway worker process is handed at start. */
  static loadSecret(keys: KeyStore): Promise<string> {
    return keys.loadOrCreate(KEY_NAMES.apiKeyDigest, () => randomBytes(32).toString('base64'));
  }

  static fromSecret(base64: string): ApiKeyDigest {
    const secret = Buffer.from(base64, 'base64');
    if (secret.length !== 32) throw new Error('The stored API-key digest key is not a 256-bit key.');
    return new ApiKeyDigest(secret);
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
