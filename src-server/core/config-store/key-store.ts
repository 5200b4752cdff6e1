import type { Database } from '../storage/database.js';
import { DatabaseOpenError } from '../storage/storage-errors.js';
import type { SecretBox } from './secret-box.js';
import { ErrorCode } from '../contracts/error-codes.js';
import { GatehouseError } from '../errors/gatehouse-error.js';

/** Names of the key material (the data dir's key files before the database: see core/legacy). */
export const KEY_NAMES = {
  /** The built-in identity provider's signing key (a private JWK); was `keys/signing-key.jwk.json`. */
  signingKey: 'identity.signing-key',
  /** The HMAC key of API-key digests (base64); was `keys/api-keys.key`. */
  apiKeyDigest: 'policies.api-key-digest',
  /** The HMAC key of the audit log's continuation tokens (base64). */
  auditContinuation: 'audit.continuation-token',
} as const;

/** Sealed with the box when the database is first used: proves later that the box holds the same key. */
const KEY_CHECK = 'secrets.key-check';
const KEY_CHECK_TEXT = 'gatehouse';

/**
 * Key material (the identity provider's signing key, the API-key digest key) in the database, sealed with the
 * data dir's secrets key: every instance on one database shares the keys, and a database dump alone reveals none.
 */
export class KeyStore {
  private constructor(
    private readonly database: Database,
    private readonly box: SecretBox,
    private readonly now: () => number,
    private readonly writable = true,
  ) {}

  /** Reads keys that exist and creates none (`gatehouse token` beside a running server). */
  static readOnly(database: Database, box: SecretBox): KeyStore {
    return new KeyStore(database, box, Date.now, false);
  }

  /**
   * Opens the store and checks that the box's key is the one the database's secrets were sealed with (a second
   * instance given another key file would otherwise fail on every secret).
   */
  static async open(
    database: Database,
    box: SecretBox,
    keyFile: string,
    now: () => number = Date.now,
  ): Promise<KeyStore> {
    const keys = new KeyStore(database, box, now);
    try {
      const check = await keys.loadOrCreate(KEY_CHECK, () => KEY_CHECK_TEXT);
      if (check === KEY_CHECK_TEXT) return keys;
    } catch (error) {
      if (!(error instanceof SealedWithAnotherKeyError)) throw error;
    }
    throw new DatabaseOpenError(
      `The secrets key ${keyFile} is not the key the secrets in ${database.location} were sealed with. Every instance that uses this database needs the same key file (setting Secrets:KeyFile).`,
    );
  }

  /** The value stored under `name`, created (and sealed) with `create` the first time. */
  async loadOrCreate(name: string, create: () => string | Promise<string>): Promise<string> {
    let row = await this.read(name);
    if (!row && !this.writable) throw new Error(`The key ${name} does not exist yet.`);
    if (!row) {
      const sealed = this.box.seal(await create());
      // Two instances starting together: the first insert wins and both read it back.
      await this.database.db
        .insertInto('key_material')
        .values({ name, sealed_value: sealed, created_at: this.now() })
        .onConflict((conflict) => conflict.column('name').doNothing())
        .execute();
      row = await this.read(name);
      if (!row) throw new Error(`The key ${name} could not be stored.`);
    }
    try {
      return this.box.unseal(row.sealed_value);
    } catch (error) {
      throw new SealedWithAnotherKeyError(`The key ${name} was sealed with another secrets key.`, {
        cause: error,
      });
    }
  }

  /** Stores a value under `name` unless one is there (the conversion of a data dir's key files). */
  async adopt(name: string, value: string): Promise<void> {
    await this.database.db
      .insertInto('key_material')
      .values({ name, sealed_value: this.box.seal(value), created_at: this.now() })
      .onConflict((conflict) => conflict.column('name').doNothing())
      .execute();
  }

  /** Every value whose name starts with `prefix`, oldest first, with when it was stored. */
  async list(prefix: string): Promise<{ name: string; createdAt: number; value: string }[]> {
    const rows = await this.database.db
      .selectFrom('key_material')
      .select(['name', 'sealed_value', 'created_at'])
      .where('name', 'like', `${prefix}%`)
      .orderBy('created_at')
      .orderBy('name')
      .execute();
    return rows.map((row) => ({
      name: row.name,
      createdAt: row.created_at,
      value: this.box.unseal(row.sealed_value),
    }));
  }

  /** Stores a value under a new `name` at `createdAt` (nothing when the name is taken: another instance was first). */
  async add(name: string, value: string, createdAt: number): Promise<void> {
    await this.database.db
      .insertInto('key_material')
      .values({ name, sealed_value: this.box.seal(value), created_at: createdAt })
      .onConflict((conflict) => conflict.column('name').doNothing())
      .execute();
  }

  private read(name: string) {
    return this.database.db
      .selectFrom('key_material')
      .select('sealed_value')
      .where('name', '=', name)
      .executeTakeFirst();
  }
}

export class SealedWithAnotherKeyError extends GatehouseError {
  override name = 'SealedWithAnotherKeyError';
  constructor(message: string, options?: ErrorOptions) {
    super(ErrorCode.GH_ERR_SECRETS_KEY_MISMATCH, message, options);
  }
}
