/** How the current session's token was obtained. */
export type SessionOrigin = 'sign-in-link' | 'pasted-token' | 'desktop' | 'identity-provider';

export interface StoredSession {
  accessToken: string;
  /** Epoch ms; unknown for tokens whose payload could not be read. */
  expiresAt?: number;
  origin: SessionOrigin;
}

// sessionStorage: the token survives a reload of this tab but is not shared with other tabs or kept on disk.
const KEY = 'gatehouse.session';

export function readStoredSession(): StoredSession | undefined {
  const text = sessionStorage.getItem(KEY);
  if (!text) return undefined;
  let parsed: Partial<StoredSession>;
  try {
    parsed = JSON.parse(text) as Partial<StoredSession>;
  } catch (error) {
    console.warn('Ignoring an unreadable stored session.', error);
    clearStoredSession();
    return undefined;
  }
  if (typeof parsed.accessToken !== 'string' || typeof parsed.origin !== 'string') return undefined;
  return parsed as StoredSession;
}

export function writeStoredSession(session: StoredSession): void {
  sessionStorage.setItem(KEY, JSON.stringify(session));
}

export function clearStoredSession(): void {
  sessionStorage.removeItem(KEY);
}
