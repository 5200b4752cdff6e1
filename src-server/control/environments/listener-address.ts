/** Listener addresses of agent groups (the rule of what one may be is the contract's `normalizeListenerHost`). */

function isWildcard(host: string): boolean {
  return host === '0.0.0.0' || host === '::';
}

function canonical(host: string): string {
  return host === 'localhost' || host === '::1' ? '127.0.0.1' : host;
}

/** Whether two listeners would compete for one socket: same port, and the same or a wildcard address. */
export function listenersCollide(
  a: { host: string; port: number },
  b: { host: string; port: number },
): boolean {
  if (a.port === 0 || b.port === 0 || a.port !== b.port) return false;
  return isWildcard(a.host) || isWildcard(b.host) || canonical(a.host) === canonical(b.host);
}

export function formatListener(host: string, port: number): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}
