/**
 * Reads `exp` from a JWT's payload (without verifying it: the server does that) so a pasted token can be
 * refreshed before it expires. Undefined when the text is not a readable JWT.
 */
export function tokenExpiresAt(token: string): number | undefined {
  const payload = token.split('.')[1];
  if (!payload || !/^[A-Za-z0-9_-]+$/.test(payload)) return undefined;
  const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
  let decoded: unknown;
  try {
    decoded = JSON.parse(atob(base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '=')));
  } catch (error) {
    // Not JSON: an opaque token. The server still accepts or refuses it; only the refresh timer is lost.
    console.info('The token payload is not readable JSON; it will not be refreshed ahead of expiry.', error);
    return undefined;
  }
  const exp = (decoded as { exp?: unknown } | null)?.exp;
  return typeof exp === 'number' ? exp * 1000 : undefined;
}
