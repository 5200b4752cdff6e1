import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { ApiClient } from '../api/api-client.js';
import { ApiProblemError, NetworkError, describeError } from '../api/api-errors.js';
import { sessionApi } from '../api/endpoints.js';
import type { CurrentIdentity } from '../api/types.js';
import { connectionMonitor } from '../connection/connection-monitor.js';
import { useNotifier } from '../notifications/notifier-context.js';
import { desktopBridge } from './desktop-bridge.js';
import { onThisComputer } from '../server/server-address.js';
import { completeExternalSignIn, externalSignInReturned } from './external-sign-in.js';
import { takePrefetchedIdentity } from './early-identity.js';
import {
  SessionContext,
  type SessionContextValue,
  type SessionState,
  type SignInNotice,
} from './session-context.js';
import { takeTicketFromLocation } from './sign-in-ticket.js';
import {
  clearStoredSession,
  readStoredSession,
  writeStoredSession,
  type StoredSession,
} from './stored-session.js';
import { tokenExpiresAt } from './token-expiry.js';
import { useSessionRenewal } from './use-session-renewal.js';

const SESSION_ENDED: SignInNotice = {
  severity: 'warning',
  title: 'Your session has ended',
  detail: 'The Control Panel no longer accepts the token of this session. Sign in again.',
};

function noticeOf(error: unknown, title: string): SignInNotice {
  const described = describeError(error);
  return { severity: 'error', title, detail: described.detail ?? described.title };
}

/** Owns the session: how it starts (desktop bridge, sign-in link, stored token), renews and ends. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>({ status: 'starting' });
  const tokenRef = useRef<string | undefined>(undefined);
  const statusRef = useRef<SessionState['status']>('starting');
  const startedRef = useRef<Promise<void> | undefined>(undefined);
  // The desktop app signs in by itself on this computer's server only; on a team server it signs in like a browser.
  const bridge = onThisComputer() ? desktopBridge() : undefined;
  const { notifyError } = useNotifier();

  const commit = useCallback((next: SessionState) => {
    statusRef.current = next.status;
    tokenRef.current = next.status === 'signed-in' ? next.session.accessToken : undefined;
    if (next.status === 'signed-in') writeStoredSession(next.session);
    else if (next.status === 'signed-out') clearStoredSession();
    setState(next);
  }, []);

  const signOut = useCallback((notice?: SignInNotice) => commit({ status: 'signed-out', notice }), [commit]);

  const unauthorizedRef = useRef<() => void>(() => undefined);
  const client = useMemo(
    () =>
      new ApiClient({
        getAccessToken: () => tokenRef.current,
        onUnauthorized: () => unauthorizedRef.current(),
        connection: connectionMonitor,
      }),
    [],
  );

  /** Checks a candidate token with GET /api/v1/me and, if accepted, makes it the session's. */
  const establish = useCallback(
    async (candidate: StoredSession, identityRequest?: Promise<CurrentIdentity>) => {
      const previous = tokenRef.current;
      tokenRef.current = candidate.accessToken;
      try {
        const identity = await (identityRequest ?? sessionApi.me(client));
        commit({ status: 'signed-in', session: candidate, identity });
      } catch (error) {
        tokenRef.current = previous;
        throw error;
      }
    },
    [client, commit],
  );

  const signInWithTicket = useCallback(
    async (ticket: string) => {
      const token = await sessionApi.signIn(client, ticket);
      await establish({
        accessToken: token.accessToken,
        expiresAt: Date.now() + token.expiresIn * 1000,
        origin: 'sign-in-link',
      });
    },
    [client, establish],
  );

  const signInWithToken = useCallback(
    (token: string) => {
      const accessToken = token.trim().replace(/^Bearer\s+/i, '');
      return establish({ accessToken, expiresAt: tokenExpiresAt(accessToken), origin: 'pasted-token' });
    },
    [establish],
  );

  const signInFromDesktop = useCallback(async () => {
    if (!bridge) throw new Error('Not running in the desktop app.');
    const desktop = await bridge.session();
    await establish({
      accessToken: desktop.accessToken,
      expiresAt: tokenExpiresAt(desktop.accessToken),
      origin: 'desktop',
    });
  }, [bridge, establish]);

  useEffect(() => {
    unauthorizedRef.current = () => {
      if (statusRef.current !== 'signed-in') return;
      if (bridge) {
        // The desktop app's main process issues a fresh token; only if that fails does the user see a sign-in.
        signInFromDesktop().catch((error: unknown) => signOut(noticeOf(error, 'The desktop session ended')));
        return;
      }
      signOut(SESSION_ENDED);
    };
  }, [bridge, signInFromDesktop, signOut]);

  useEffect(() => {
    startedRef.current ??= (async () => {
      if (bridge) {
        await signInFromDesktop().catch((error: unknown) =>
          signOut(noticeOf(error, 'The desktop app could not sign you in')),
        );
        return;
      }
      const ticket = takeTicketFromLocation();
      if (ticket) {
        await signInWithTicket(ticket).catch((error: unknown) =>
          signOut(noticeOf(error, 'The sign-in link did not work')),
        );
        return;
      }
      if (externalSignInReturned()) {
        await completeExternalSignIn()
          .then((token) => establish({ ...token, origin: 'identity-provider' }))
          .catch((error: unknown) =>
            signOut(noticeOf(error, 'Signing in with the identity provider did not work')),
          );
        return;
      }
      const stored = readStoredSession();
      if (!stored) {
        signOut();
        return;
      }
      await establish(stored, takePrefetchedIdentity(stored.accessToken)).catch((error: unknown) =>
        signOut(
          error instanceof ApiProblemError && error.status === 401
            ? SESSION_ENDED
            : noticeOf(error, 'The session could not be resumed'),
        ),
      );
    })();
  }, [bridge, establish, signInFromDesktop, signInWithTicket, signOut]);

  // A sign-in link pasted into the address bar of an open console tab changes only the fragment: no page load.
  useEffect(() => {
    if (bridge) return undefined;
    const onHashChange = () => {
      const ticket = takeTicketFromLocation();
      if (!ticket) return;
      signInWithTicket(ticket).catch((error: unknown) => {
        // A link that failed does not end a session that works; without one, the sign-in screen says why.
        if (statusRef.current === 'signed-in') notifyError(error, 'The sign-in link did not work');
        else signOut(noticeOf(error, 'The sign-in link did not work'));
      });
    };
    window.addEventListener('hashchange', onHashChange);
    return () => window.removeEventListener('hashchange', onHashChange);
  }, [bridge, notifyError, signInWithTicket, signOut]);

  useSessionRenewal(state, {
    renew: async (session) => {
      if (session.origin === 'desktop' && bridge) {
        const desktop = await bridge.session();
        return {
          ...session,
          accessToken: desktop.accessToken,
          expiresAt: tokenExpiresAt(desktop.accessToken),
        };
      }
      const token = await sessionApi.refresh(client);
      return { ...session, accessToken: token.accessToken, expiresAt: Date.now() + token.expiresIn * 1000 };
    },
    apply: (session) => {
      if (statusRef.current !== 'signed-in') return;
      tokenRef.current = session.accessToken;
      writeStoredSession(session);
      setState((current) => (current.status === 'signed-in' ? { ...current, session } : current));
    },
    isRetryable: (error) => error instanceof NetworkError,
  });

  const value = useMemo<SessionContextValue>(
    () => ({ state, client, isDesktop: bridge !== undefined, signInWithTicket, signInWithToken, signOut }),
    [state, client, bridge, signInWithTicket, signInWithToken, signOut],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
