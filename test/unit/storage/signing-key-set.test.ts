import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KeyStore } from '../../../src-server/core/config-store/key-store.js';
import { SecretBox } from '../../../src-server/core/config-store/secret-box.js';
import { createLogger } from '../../../src-server/core/logging/logger.js';
import { Database } from '../../../src-server/core/storage/database.js';
import { SigningKeySet, type RotationPolicy } from '../../../src-server/control/identity/signing-key-set.js';
import { TokenIssuer } from '../../../src-server/control/identity/token-issuer.js';
import { TokenVerifier } from '../../../src-server/control/identity/token-verifier.js';
import { createTestDatabase, ENGINES } from '../../helpers/test-database.js';
import { tempDir } from '../../helpers/temp-dir.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const POLICY: RotationPolicy = { rotateEveryMs: 30 * DAY, publishAheadMs: HOUR, keepAfterMs: 2 * DAY };

describe.each(ENGINES)('the signing key set on %s', (engine) => {
  it('publishes a new key before it signs, keeps the old one until its tokens expired, on every instance', async () => {
    const dir = await tempDir();
    cleanups.push(dir.remove);
    const connectionString = await createTestDatabase(engine);
    const keyFile = join(dir.path, 'keys', 'secrets.key');
    let now = Date.UTC(2026, 0, 1);
    const clock = () => now;
    const instance = async () => {
      const database = await Database.open({
        dataDir: dir.path,
        connectionString,
        logger: createLogger('silent'),
      });
      cleanups.push(() => database.close());
      const keys = await KeyStore.open(database, await SecretBox.open(keyFile), keyFile, clock);
      return SigningKeySet.open(keys, clock, POLICY);
    };
    const [a, b] = [await instance(), await instance()];
    const first = a.current();
    expect(b.current().kid).toBe(first.kid);
    expect(a.published().map((key) => key.kid)).toEqual([first.kid]);
    expect(JSON.stringify(a.published())).not.toContain('"d"');

    const verifierOf = (keys: SigningKeySet) =>
      new TokenVerifier({
        builtIn: { issuer: 'urn:test', audience: 'gatehouse', publicJwks: () => keys.published() },
        clientName: () => undefined,
      });
    const tokenOf = (keys: SigningKeySet) =>
      new TokenIssuer(keys, 'urn:test', 'gatehouse').issue({
        subject: 'user:ann',
        roles: ['Operator'],
        ttlSeconds: 10 * 365 * 86_400,
      });
    const accepted = async (keys: SigningKeySet, token: string) =>
      verifierOf(keys)
        .verify(token)
        .then(
          () => true,
          () => false,
        );
    const oldToken = await tokenOf(a);

    // Not due: nothing new.
    now += 29 * DAY;
    expect(await a.rotateIfDue()).toBe(false);
    now += DAY;
    expect(await a.rotateIfDue()).toBe(true);
    // Another instance was first: no second key.
    await b.reload();
    expect(await b.rotateIfDue()).toBe(false);
    const published = a.published().map((key) => key.kid);
    expect(published).toHaveLength(2);
    const second = published[1]!;
    // Published at once on both, signing only an hour later.
    expect(b.published().map((key) => key.kid)).toEqual(published);
    expect(a.current().kid).toBe(first.kid);
    expect(b.current().kid).toBe(first.kid);
    now += HOUR;
    expect(a.current().kid).toBe(second);
    expect(b.current().kid).toBe(second);
    const newToken = await tokenOf(b);
    expect(await accepted(a, newToken)).toBe(true);
    // The old key's tokens are still accepted until keepAfter has passed since the new key started signing.
    now += 2 * DAY - 1;
    expect(await accepted(a, oldToken)).toBe(true);
    now += 1;
    expect(a.published().map((key) => key.kid)).toEqual([second]);
    expect(await accepted(a, oldToken)).toBe(false);
    expect(await accepted(b, newToken)).toBe(true);
  });
});
