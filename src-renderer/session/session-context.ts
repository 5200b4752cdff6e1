import { createContext, useContext, useMemo } from 'react';
import type { ApiClient } from '../api/api-client.js';
import type { CurrentIdentity } from '../api/types.js';
import type { StoredSession } from './stored-session.js';

export interface SignInNotice {
  severity: 'info' | 'warning' | 'error';
  title: string;
  detail?: string;
}

export type SessionState =
  | { status: 'starting' }
  | { status: 'signed-out'; notice?: SignInNotice }
  | { status: 'signed-in'; session: StoredSession; identity: CurrentIdentity };

export interface SessionContextValue {
  state: SessionState;
  client: ApiClient;
  /** Running inside the desktop app, which signs in by itself. */
  isDesktop: boolean;
  /** Accepts a one-time sign-in link (or its ticket) or a bearer token. */
  signInWithTicket: (ticket: string) => Promise<void>;
  signInWithToken: (token: string) => Promise<void>;
  signOut: (notice?: SignInNotice) => void;
}

export const SessionContext = createContext<SessionContextValue | undefined>(undefined);

export function useSession(): SessionContextValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession must be used inside <SessionProvider>.');
  return value;
}

export function useApiClient(): ApiClient {
  return useSession().client;
}

/** The signed-in identity; only for components rendered behind the sign-in gate. */
export function useIdentity(): CurrentIdentity {
  const { state } = useSession();
  if (state.status !== 'signed-in') throw new Error('useIdentity needs a signed-in session.');
  return state.identity;
}

/** Whether the signed-in user may perform an activity (`{Controller}.{Action}`), from GET /api/v1/me. */
export function useCan(): (activity: string) => boolean {
  const { activities } = useIdentity();
  return useMemo(() => {
    const granted = new Set(activities);
    return (activity: string) => granted.has(activity);
  }, [activities]);
}
