import { ApiClient } from '../api/api-client.js';
import { sessionApi } from '../api/endpoints.js';
import type { CurrentIdentity } from '../api/types.js';
import { connectionMonitor } from '../connection/connection-monitor.js';
import { ticketOf } from './sign-in-ticket.js';
import { readStoredSession } from './stored-session.js';
import { onThisComputer } from '../server/server-address.js';
import { externalSignInReturned } from './external-sign-in.js';

let prefetched: { accessToken: string; identity: Promise<CurrentIdentity> } | undefined;

/**
 * Asks GET /api/v1/me for the session this tab stored before React has rendered anything: resuming it is the first
 * thing a reload waits for. The session provider takes this answer instead of asking again, once `alongWith` has
 * settled too.
 */
export function prefetchStoredIdentity(alongWith: Promise<void>): void {
  // The desktop app (on this computer), a sign-in link and the identity provider's return start it their own way.
  if (onThisComputer() || ticketOf(window.location.hash) || externalSignInReturned()) return;
  const stored = readStoredSession();
  if (!stored) return;
  const client = new ApiClient({
    getAccessToken: () => stored.accessToken,
    // The provider judges the answer, a 401 included, when it takes it.
    onUnauthorized: () => undefined,
    connection: connectionMonitor,
  });
  const identity = Promise.all([sessionApi.me(client), alongWith]).then(([me]) => me);
  // Whoever takes the promise handles its failure; until then it must not count as unhandled.
  identity.catch(() => undefined);
  prefetched = { accessToken: stored.accessToken, identity };
}

/** The prefetched answer for this token, handed out once. */
export function takePrefetchedIdentity(accessToken: string): Promise<CurrentIdentity> | undefined {
  const taken = prefetched?.accessToken === accessToken ? prefetched.identity : undefined;
  prefetched = undefined;
  return taken;
}
