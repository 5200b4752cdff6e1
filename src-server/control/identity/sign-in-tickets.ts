import { createHash, randomBytes } from 'node:crypto';
import type { ConfigStore } from '../../core/config-store/config-store.js';

export const TICKET_TTL_MS = 10 * 60 * 1000;

const hashOf = (ticket: string) => createHash('sha256').update(ticket).digest('base64url');

/**
 * One-time sign-in tickets: `gatehouse serve` prints a URL carrying one in its fragment, and the console
 * exchanges it for a session token. Only the hash is stored; a ticket works once and for ten minutes.
 */
export class SignInTickets {
  constructor(
    private readonly store: ConfigStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async create(userName: string, roles: string[]): Promise<string> {
    const ticket = randomBytes(24).toString('base64url');
    const nowMs = this.now().getTime();
    await this.store.update((data) => {
      data.signInTickets = data.signInTickets.filter((t) => Date.parse(t.expiresAt) > nowMs);
      data.signInTickets.push({
        ticketHash: hashOf(ticket),
        userName,
        roles,
        expiresAt: new Date(nowMs + TICKET_TTL_MS).toISOString(),
      });
    });
    return ticket;
  }

  /** Consumes the ticket; undefined when unknown, used or expired. */
  async redeem(ticket: string): Promise<{ userName: string; roles: string[] } | undefined> {
    const wanted = hashOf(ticket);
    const nowMs = this.now().getTime();
    return this.store.update((data) => {
      const found = data.signInTickets.find((t) => t.ticketHash === wanted);
      data.signInTickets = data.signInTickets.filter((t) => t !== found && Date.parse(t.expiresAt) > nowMs);
      if (!found || Date.parse(found.expiresAt) <= nowMs) return undefined;
      return { userName: found.userName, roles: found.roles };
    });
  }
}
