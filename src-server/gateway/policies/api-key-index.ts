import type { ApiKeyRecord } from '../../store/config-model.js';

/** Checks a presented key against a stored record (HMAC-SHA-256 digest, constant-time comparison). */
export type ApiKeyVerifier = (presentedKey: string, record: ApiKeyRecord) => boolean;

export type ApiKeyLookup = { found: true; record: ApiKeyRecord; expired: boolean } | { found: false };

/**
 * The API keys of one environment, indexed by their recognisable prefix so a presented key is verified against
 * a handful of digests at most, not all of them.
 */
export class ApiKeyIndex {
  readonly #byPrefix = new Map<string, ApiKeyRecord[]>();
  readonly #prefixLengths: number[];
  /** Keys that verified, so a client's next request costs a map lookup instead of an HMAC. */
  readonly #verified = new Map<string, ApiKeyRecord>();

  constructor(
    keys: readonly ApiKeyRecord[],
    private readonly verify: ApiKeyVerifier,
  ) {
    const lengths = new Set<number>();
    for (const key of keys) {
      const list = this.#byPrefix.get(key.prefix);
      if (list) list.push(key);
      else this.#byPrefix.set(key.prefix, [key]);
      lengths.add(key.prefix.length);
    }
    this.#prefixLengths = [...lengths];
  }

  lookup(presented: string, now: Date): ApiKeyLookup {
    const known = this.#verified.get(presented);
    if (known) return { found: true, record: known, expired: isExpired(known, now) };
    for (const length of this.#prefixLengths) {
      const candidates = this.#byPrefix.get(presented.slice(0, length));
      if (!candidates) continue;
      for (const record of candidates) {
        if (!this.verify(presented, record)) continue;
        if (this.#verified.size >= MAX_VERIFIED) this.#verified.delete(this.#verified.keys().next().value!);
        this.#verified.set(presented, record);
        return { found: true, record, expired: isExpired(record, now) };
      }
    }
    return { found: false };
  }
}

const MAX_VERIFIED = 4096;

function isExpired(record: ApiKeyRecord, now: Date): boolean {
  return record.expiresAt !== undefined && Date.parse(record.expiresAt) <= now.getTime();
}
