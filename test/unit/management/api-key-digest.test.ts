import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiKeyDigest,
  apiKeyPrefix,
  generateApiKey,
  isWellFormedApiKey,
} from '../../../src-server/control/policies/api-key-digest.js';
import type { ApiKeyRecord } from '../../../src-server/core/model/config-model.js';
import { tempDir } from '../../helpers/temp-dir.js';

describe('API key digests', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;

  beforeAll(async () => {
    dir = await tempDir();
  });
  afterAll(() => dir.remove());

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

  it('creates one secret per keys folder even when opened concurrently, private to the user', async () => {
    const keysDir = join(dir.path, 'keys');
    const [a, b] = await Promise.all([ApiKeyDigest.open(keysDir), ApiKeyDigest.open(keysDir)]);
    const key = generateApiKey();
    expect(a.digestApiKey(key)).toBe(b.digestApiKey(key));
    const file = join(keysDir, 'api-keys.key');
    expect(Buffer.from((await readFile(file, 'utf8')).trim(), 'base64')).toHaveLength(32);
    if (process.platform !== 'win32') expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('verifies keys in constant time and finds their unexpired record quickly', async () => {
    const digest = await ApiKeyDigest.open(join(dir.path, 'other-keys'));
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

    const started = performance.now();
    for (let index = 0; index < 10_000; index++) digest.findApiKey(records, presented, new Date());
    expect((performance.now() - started) / 10_000).toBeLessThan(0.5);
  });
});
