import { useEffect, useRef } from 'react';
import type { SessionState } from './session-context.js';
import type { StoredSession } from './stored-session.js';

const MIN_DELAY_MS = 5_000;
const RETRY_DELAY_MS = 10_000;

/** Renew a minute before expiry, or after three quarters of a short lifetime. */
export function renewalDelay(expiresAt: number, now = Date.now()): number {
  const left = expiresAt - now;
  return Math.max(MIN_DELAY_MS, left - Math.min(60_000, left / 4));
}

export interface RenewalHandlers {
  renew: (session: StoredSession) => Promise<StoredSession>;
  apply: (session: StoredSession) => void;
  /** Failures worth another try (the Control Panel restarting); others end the renewals of this token. */
  isRetryable: (error: unknown) => boolean;
}

/** Renews the session's token before it expires (POST /api/v1/session/refresh, or the desktop bridge). */
export function useSessionRenewal(state: SessionState, handlers: RenewalHandlers): void {
  const handlersRef = useRef(handlers);
  useEffect(() => {
    handlersRef.current = handlers;
  });
  const session = state.status === 'signed-in' ? state.session : undefined;

  useEffect(() => {
    if (!session?.expiresAt) return;
    let disposed = false;
    const renew = async () => {
      try {
        const renewed = await handlersRef.current.renew(session);
        if (!disposed) handlersRef.current.apply(renewed);
      } catch (error) {
        if (disposed) return;
        if (handlersRef.current.isRetryable(error)) {
          timer = setTimeout(() => void renew(), RETRY_DELAY_MS);
          return;
        }
        // A token the server will not refresh (another identity provider's) simply runs until it expires;
        // a refused one has already ended the session through the API client's 401 handling.
        console.warn('The session token could not be renewed; it stays valid until it expires.', error);
      }
    };
    let timer = setTimeout(() => void renew(), renewalDelay(session.expiresAt));
    return () => {
      disposed = true;
      clearTimeout(timer);
    };
  }, [session]);
}
