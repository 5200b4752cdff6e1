import type { ApiKeyRecord } from '../../core/model/config-model.js';

/** Checks a presented key against a stored record (HMAC-SHA-256 digest, constant-time comparison). */
export type ApiKeyVerifier = (presentedKey: string, record: ApiKeyRecord) => boolean;

/** A stored key with what every request that presents it needs, made once instead of per request. */
export interface KnownApiKey {
  record: ApiKeyRecord;
  /** `apiKey:<prefix>`: who the caller is, for monitoring. */
  identity: string;
  /** `apiKey:<id>`: what the throttle counts. */
  throttleIdentity: string;
  /** When the key stops working (epoch ms); undefined when it never does. */
  expiresAtMs: number | undefined;
}

/**
 * The API keys of one environment, indexed by their recognisable prefix so a presented key is verified against
 * a handful of digests at most, not all of them.
 */
export class ApiKeyIndex {
  readonly #byPrefix = new Map<string, KnownApiKey[]>();
  readonly #prefixLengths: number[];
  /** Keys that verified, so a client's next request costs a map lookup instead of an HMAC. */
  readonly #verified = new Map<string, KnownApiKey>();

  constructor(
    keys: readonly ApiKeyRecord[],
    private readonly verify: ApiKeyVerifier,
  ) {
    const lengths = new Set<number>();
    for (const record of keys) {
      const key: KnownApiKey = {
        record,
        identity: `apiKey:${record.prefix}`,
        throttleIdentity: `apiKey:${record.id}`,
        expiresAtMs: record.expiresAt === undefined ? undefined : Date.parse(record.expiresAt),
      };
      const list = this.#byPrefix.get(record.prefix);
      if (list) list.push(key);
      else this.#byPrefix.set(record.prefix, [key]);
      lengths.add(record.prefix.length);
    }
    this.#prefixLengths = [...lengths];
  }

  /** The stored key the presented one is, or undefined. */
  lookup(presented: string): KnownApiKey | undefined {
    const known = this.#verified.get(presented);
    if (known) return known;
    for (const length of this.#prefixLengths) {
      const candidates = this.#byPrefix.get(presented.slice(0, length));
      if (!candidates) continue;
      for (const key of candidates) {
        if (!this.verify(presented, key.record)) continue;
        if (this.#verified.size >= MAX_VERIFIED) this.#verified.delete(this.#verified.keys().next().value!);
        this.#verified.set(presented, key);
        return key;
      }
    }
    return undefined;
  }
}

const MAX_VERIFIED = 4096;

/** Whether the key has expired at `now` (an expiry that is no valid time never passes: NaN compares false). */
export function isExpired(key: KnownApiKey, now: Date): boolean {
  return key.expiresAtMs !== undefined && key.expiresAtMs <= now.getTime();
}
