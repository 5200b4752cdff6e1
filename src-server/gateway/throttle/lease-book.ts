/**
 * The most of a limit one process holds at a time. Tokens held but not used are counted as used, so several
 * processes together can refuse a client at most (processes × this share) of its limit early; they can never let
 * it exceed the limit.
 */
export const LEASE_SHARE_OF_LIMIT = 0.005;
/** How long a lease is good for: a client's recent rate decides its size, so this bounds what is wasted. */
export const LEASE_LIFETIME_MS = 100;
const MAX_KEYS = 10_000;

interface Lease {
  remaining: number;
  expiresAt: number;
  /** Requests served since the last grant (the one that asked for it included): the client's recent rate. */
  used: number;
  /** Tokens of the last grant: a lease half spent is renewed. */
  granted: number;
}

/**
 * Tokens a shared counter granted this process ahead of need, per counter key. A shared store asked once per
 * request costs a round trip and a script each time; asked for a lease sized to the client's recent rate, it is
 * asked about once per lease instead, and a slow client still asks once per request (leases of one).
 */
export class LeaseBook {
  readonly #leases = new Map<string, Lease>();

  /** Takes one token from the key's lease, when it holds one that has not expired. */
  take(key: string, nowMs: number): boolean {
    const lease = this.#leases.get(key);
    if (lease === undefined || lease.remaining === 0 || nowMs >= lease.expiresAt) return false;
    lease.remaining -= 1;
    lease.used += 1;
    return true;
  }

  /**
   * How many tokens to ask for: twice what the last lease served (a lease long expired tells nothing of the
   * client's rate now), up to the share of the limit, at least one.
   */
  sizeFor(key: string, limit: number, nowMs: number): number {
    const cap = Math.max(1, Math.floor(limit * LEASE_SHARE_OF_LIMIT));
    const lease = this.#leases.get(key);
    const used = lease !== undefined && nowMs < lease.expiresAt + LEASE_LIFETIME_MS ? lease.used : 0;
    return Math.min(cap, Math.max(1, used * 2));
  }

  /**
   * How many tokens to ask for ahead of need, while the lease still serves (0: not yet). A busy client's lease is
   * renewed once half spent or half way through its life, so its requests never wait for the store's answer: with
   * the cores busy, the store's process may answer only milliseconds later, and every request arriving meanwhile
   * would wait. What the process holds stays within the share of the limit.
   */
  renewalSize(key: string, limit: number, nowMs: number): number {
    const lease = this.#leases.get(key);
    if (lease === undefined || nowMs >= lease.expiresAt) return 0;
    const halfSpent = lease.remaining * 2 <= lease.granted;
    const halfLived = lease.expiresAt - nowMs <= LEASE_LIFETIME_MS / 2;
    if (!halfSpent && !halfLived) return 0;
    const room = Math.max(1, Math.floor(limit * LEASE_SHARE_OF_LIMIT)) - lease.remaining;
    // Half spent before half its life: the client outruns its lease, which doubles. Else its use sizes the next.
    const wanted = halfSpent && !halfLived ? lease.granted * 2 : lease.used * 2;
    return Math.max(0, Math.min(room, Math.max(1, wanted)));
  }

  /** Adds a renewal's tokens (none of them taken yet) to the lease, which lives on until `expiresAt`. */
  renew(key: string, granted: number, nowMs: number, expiresAt: number): void {
    const lease = this.#leases.get(key);
    if (lease === undefined || nowMs >= lease.expiresAt) {
      this.#leases.delete(key);
      this.#add(key, { remaining: granted, expiresAt, used: 0, granted }, nowMs);
      return;
    }
    lease.remaining += granted;
    lease.used = 0;
    lease.granted = granted;
    lease.expiresAt = Math.max(lease.expiresAt, expiresAt);
  }

  /**
   * Keeps what the store granted beyond the request that asked (`granted − 1`) until `expiresAt`. Grants that
   * arrive while a lease is still good add to it, so concurrent asks waste nothing.
   */
  hold(key: string, granted: number, nowMs: number, expiresAt: number): void {
    const lease = this.#leases.get(key);
    if (lease !== undefined && nowMs < lease.expiresAt) {
      lease.remaining += granted - 1;
      lease.used += 1;
      lease.granted = Math.max(lease.granted, granted);
      lease.expiresAt = Math.max(lease.expiresAt, expiresAt);
      return;
    }
    this.#leases.delete(key);
    this.#add(key, { remaining: granted - 1, expiresAt, used: 1, granted }, nowMs);
  }

  #add(key: string, lease: Lease, nowMs: number): void {
    if (this.#leases.size >= MAX_KEYS) this.#dropExpired(nowMs);
    this.#leases.set(key, lease);
  }

  #dropExpired(nowMs: number): void {
    for (const [key, lease] of this.#leases) if (nowMs >= lease.expiresAt) this.#leases.delete(key);
    // Still full of live leases: the oldest go (their tokens count as used; the limit still holds).
    for (const key of this.#leases.keys()) {
      if (this.#leases.size < MAX_KEYS) break;
      this.#leases.delete(key);
    }
  }
}
