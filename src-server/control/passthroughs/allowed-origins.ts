/**
 * CORS allowed origins: `*`, an exact origin `scheme://host[:port]`, or `scheme://*.domain[:port]` for every
 * subdomain of a domain. Any scheme (desktop apps have `app://` origins); no path, query or trailing slash.
 */

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const DOMAIN = `${LABEL}(?:\\.${LABEL})*`;
const IPV4 = '(?:\\d{1,3}\\.){3}\\d{1,3}';
const IPV6 = '\\[[0-9a-f:.]+\\]';
const ORIGIN = new RegExp(`^([a-z][a-z0-9+.-]*)://(\\*\\.)?(${DOMAIN}|${IPV4}|${IPV6})(?::(\\d{1,5}))?$`);

export type OriginCheck = { ok: true; origin: string } | { ok: false; message: string };

export function checkAllowedOrigin(raw: string): OriginCheck {
  const origin = raw.trim().toLowerCase();
  if (origin === '*') return { ok: true, origin };
  if (origin === '' || origin === 'null') {
    return { ok: false, message: 'Use *, scheme://host[:port] or scheme://*.domain.' };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\/[^/]+\/.*$/.test(origin)) {
    return { ok: false, message: 'An origin has no path: leave out everything from the / after the host.' };
  }
  const match = ORIGIN.exec(origin);
  if (!match)
    return {
      ok: false,
      message: 'Use *, scheme://host[:port] or scheme://*.domain (for example https://*.example.com).',
    };
  const [, , wildcard, host = '', port] = match;
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) {
    return { ok: false, message: 'The port must be from 1 to 65535.' };
  }
  if (wildcard && (!host.includes('.') || /^[\d.]+$/.test(host) || host.startsWith('['))) {
    return {
      ok: false,
      message: 'A wildcard needs a domain with at least two labels, such as https://*.example.com.',
    };
  }
  return { ok: true, origin };
}
