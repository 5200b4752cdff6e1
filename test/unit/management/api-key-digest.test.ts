import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiKeyDigest,
  apiKeyPrefix,
  generateApiKey,
  isWellFormedApiKey,
} from '../../../src-server/control/policies/api-key-digest.js';
import { KeyStore } from '../../../src-server/core/config-store/key-store.js';
import { SecretBox } from '../../../src-server/core/config-store/secret-box.js';
import { createLogger } from '../../../src-server/core/logging/logger.js';
import type { ApiKeyRecord } from '../../../src-server/core/model/config-model.js';
import { Database } from '../../../src-server/core/storage/database.js';
import { tempDir } from '../../helpers/temp-dir.js';

describe('API key digests', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let database: Database;
  let keys: KeyStore;

  beforeAll(async () => {
    dir = await tempDir();
    database = await Database.open({ dataDir: dir.path, logger: createLogger('silent') });
    const file = join(dir.path, 'keys', 'secrets.key');
    keys = await KeyStore.open(database, await SecretBox.open(file), file);
  });
  afterAll(async () => {
    await database.close();
    await dir.remove();
  });

  it('generates keys of the documented form', () => {
    const key = generateApiKey();
    expect(key).toMatch(/^gatehouse_[A-Za-z0-9_-]{43}$/);
    expect(isWellFormedApiKey(key)).toBe(true);
    expect(isWellFormedApiKey(`${key}x`)).toBe(false);
    expect(apiKeyPrefix(key)).toBe(key.slice(0, 'gatehouse_'.length + 7));
    expect(generateApiKey()).not.toBe(key);
  });

  it('still accepts keys of the earlier gh_ form, recognised by the same ten characters as before', () => {
    const earlier = `gh_${'A'.repeat(43)}`;
    expect(isWellFormedApiKey(earlier)).toBe(true);
    expect(apiKeyPrefix(earlier)).toBe(earlier.slice(0, 10));
    expect(isWellFormedApiKey(`ghp_${'A'.repeat(43)}`)).toBe(false);
  });

  it('creates one secret per database even when opened concurrently, and keeps it sealed', async () => {
    const [a, b] = await Promise.all([ApiKeyDigest.open(keys), ApiKeyDigest.open(keys)]);
    const key = generateApiKey();
    expect(a.digestApiKey(key)).toBe(b.digestApiKey(key));
    const rows = await database.db.selectFrom('key_material').selectAll().execute();
    const stored = rows.find((row) => row.name === 'policies.api-key-digest')!;
    expect(stored.sealed_value).toMatch(/^v1:/);
  });

  it('verifies keys in constant time and finds their unexpired record', async () => {
    const digest = await ApiKeyDigest.open(keys);
    const records: ApiKeyRecord[] = Array.from({ length: 1000 }, (_, index) => {
      const key = generateApiKey();
      return {
        id: String(index),
        name: `k${index}`,
        environmentId: 'development',
        prefix: apiKeyPrefix(key),
        digest: digest.digestApiKey(key),
        policyIds: [],
        createdAt: new Date(0).toISOString(),
        ...(index === 1 ? { expiresAt: new Date(1000).toISOString() } : {}),
        key,
      };
    });
    const presented = (records[500] as ApiKeyRecord & { key: string }).key;
    expect(digest.verifyApiKey(presented, records[500]!.digest)).toBe(true);
    expect(digest.verifyApiKey(presented, records[501]!.digest)).toBe(false);
    expect(digest.verifyApiKey(presented, 'not-base64!')).toBe(false);
    expect(digest.findApiKey(records, presented, new Date())?.id).toBe('500');
    expect(digest.findApiKey(records, 'gh_nope', new Date())).toBeUndefined();
    const expired = (records[1] as ApiKeyRecord & { key: string }).key;
    expect(digest.findApiKey(records, expired, new Date(500))?.id).toBe('1');
    expect(digest.findApiKey(records, expired, new Date(2000))).toBeUndefined();
  });
});
