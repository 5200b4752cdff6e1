import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import { KEY_NAMES, type KeyStore } from '../../core/config-store/key-store.js';
import { SIGNING_ALGORITHM, type SigningKey } from './signing-key.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export interface RotationPolicy {
  /** A new key is made when the newest is this old. */
  rotateEveryMs: number;
  /**
   * A new key is published (JWKS, and every instance's verifier) this long before it signs: every instance
   * reloads the set within a minute, and a relying party that cached the JWKS finds the new `kid` meanwhile.
   */
  publishAheadMs: number;
  /**
   * A replaced key stays published this long after its successor started signing: the longest a token lives
   * (`gatehouse token --ttl` allows 30 days), so no token it signed is refused before it expires.
   */
  keepAfterMs: number;
}

export const DEFAULT_ROTATION: RotationPolicy = {
  rotateEveryMs: 30 * DAY_MS,
  publishAheadMs: HOUR_MS,
  keepAfterMs: 30 * DAY_MS + HOUR_MS,
};

/** What signs tokens now, and the public keys tokens are verified with. */
export interface SigningKeys {
  current: () => SigningKey;
  published: () => JWK[];
}

interface StoredKey extends SigningKey {
  createdAt: number;
  /** When it starts signing: the first key at once, a rotated one after `publishAheadMs`. */
  signsFrom: number;
}

/** Rotated keys are stored under `identity.signing-key@<created at>`, beside the first one. */
const ROTATED_PREFIX = `${KEY_NAMES.signingKey}@`;

/**
 * The built-in identity provider's key set, in the database (sealed, shared by every instance on it). One key
 * signs at a time; a new one is made by `rotateIfDue` (a background job, on one instance), published at once and
 * signing an hour later; the one it replaces stays published until the tokens it signed have expired.
 */
export class SigningKeySet implements SigningKeys {
  #keys: StoredKey[];

  private constructor(
    private readonly store: KeyStore,
    private readonly now: () => number,
    private readonly policy: RotationPolicy,
    keys: StoredKey[],
  ) {
    this.#keys = keys;
  }

  /**
   * Reads the set (creating its first key on a new database, unless the store is read-only). Read once: each key's
   * import costs a start ~2 ms of CPU, and the first key was imported twice (a read of it, then of the set).
   */
  static async open(
    store: KeyStore,
    now: () => number = Date.now,
    policy: RotationPolicy = DEFAULT_ROTATION,
  ): Promise<SigningKeySet> {
    const rows = await signingKeyRows(store);
    if (rows.some((row) => row.name === KEY_NAMES.signingKey)) {
      return new SigningKeySet(store, now, policy, await keysOf(rows, policy));
    }
    // A read-only store (`gatehouse token`) says that the key does not exist yet.
    await store.loadOrCreate(KEY_NAMES.signingKey, newPrivateJwkText);
    return new SigningKeySet(store, now, policy, await readKeys(store, policy));
  }

  current(): SigningKey {
    const now = this.now();
    const signing = this.#keys.filter((key) => key.signsFrom <= now).at(-1) ?? this.#keys[0];
    if (!signing) throw new Error('The signing key set is empty.');
    return signing;
  }

  published(): JWK[] {
    const now = this.now();
    return this.#keys
      .filter((key, index) => {
        const successor = this.#keys[index + 1];
        return !successor || successor.signsFrom > now || now - successor.signsFrom < this.policy.keepAfterMs;
      })
      .map((key) => key.publicJwk);
  }

  /** Reads the set again (another instance rotated). */
  async reload(): Promise<void> {
    this.#keys = await readKeys(this.store, this.policy);
  }

  /** Makes a new key when the newest is `rotateEveryMs` old. True when this call made one. */
  async rotateIfDue(): Promise<boolean> {
    await this.reload();
    const newest = this.#keys.at(-1);
    const now = this.now();
    if (newest && now - newest.createdAt < this.policy.rotateEveryMs) return false;
    await this.store.add(`${ROTATED_PREFIX}${String(now).padStart(15, '0')}`, await newPrivateJwkText(), now);
    await this.reload();
    return true;
  }
}

async function newPrivateJwkText(): Promise<string> {
  const { privateKey } = await generateKeyPair(SIGNING_ALGORITHM, { extractable: true });
  return JSON.stringify({
    ...(await exportJWK(privateKey)),
    kid: randomUUID(),
    alg: SIGNING_ALGORITHM,
    use: 'sig',
  });
}

async function readKeys(store: KeyStore, policy: RotationPolicy): Promise<StoredKey[]> {
  return keysOf(await signingKeyRows(store), policy);
}

type KeyRow = Awaited<ReturnType<KeyStore['list']>>[number];

async function signingKeyRows(store: KeyStore): Promise<KeyRow[]> {
  return (await store.list(KEY_NAMES.signingKey)).filter(
    (row) => row.name === KEY_NAMES.signingKey || row.name.startsWith(ROTATED_PREFIX),
  );
}

function keysOf(rows: KeyRow[], policy: RotationPolicy): Promise<StoredKey[]> {
  // The first key first (it may have been converted from a key file after a rotation row's time), then by time.
  rows.sort(
    (a, b) =>
      Number(b.name === KEY_NAMES.signingKey) - Number(a.name === KEY_NAMES.signingKey) ||
      a.createdAt - b.createdAt,
  );
  return Promise.all(
    rows.map(async (row, index) => {
      const stored = JSON.parse(row.value) as JWK;
      if (!stored.kid || !stored.d) throw new Error(`The stored signing key ${row.name} is incomplete.`);
      const privateKey = (await importJWK(stored, SIGNING_ALGORITHM)) as CryptoKey;
      const { d: _private, ...publicJwk } = stored;
      return {
        kid: stored.kid,
        privateKey,
        publicJwk,
        createdAt: row.createdAt,
        signsFrom: index === 0 ? 0 : row.createdAt + policy.publishAheadMs,
      };
    }),
  );
}
