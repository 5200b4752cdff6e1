/** The parts of a target URL a request to it needs, in the form node's URL gives them. */
export interface TargetLocation {
  href: string;
  /** `protocol//host`: one string shared by the requests to an origin (the connection pool's key). */
  origin: string;
  /** `http:` or `https:`. */
  protocol: string;
  /** Host name and port as the URL writes them (`[::1]:8443`). */
  host: string;
  hostname: string;
  /** Empty for the scheme's default port. */
  port: string;
  pathname: string;
  /** `?…`, or empty. */
  search: string;
}

const CANONICAL = /^(https?:)\/\/([^/?#@]*)(\/[^?#]*)(\?[^#]*)?$/;

/**
 * Splits a URL the template engine has already parsed and serialized (`URL.href`), which saves parsing it a second
 * time per request. Anything not in the canonical http(s) form (user info, say) goes through `URL`.
 */
export function targetLocation(href: string): TargetLocation {
  const known = lastOrigin;
  if (known !== undefined && href.startsWith(known.prefix)) {
    const pathStart = known.prefix.length;
    if (href.charCodeAt(pathStart) === SLASH && !href.includes('#', pathStart)) {
      const queryStart = href.indexOf('?', pathStart);
      const { prefix, protocol, host, hostname, port } = known;
      return {
        href,
        origin: prefix,
        protocol,
        host,
        hostname,
        port,
        pathname: queryStart === -1 ? href.slice(pathStart) : href.slice(pathStart, queryStart),
        // URL gives an empty query (`x?`) as no query at all.
        search: queryStart === -1 || queryStart === href.length - 1 ? '' : href.slice(queryStart),
      };
    }
  }
  const match = CANONICAL.exec(href);
  if (!match) return fromUrl(new URL(href));
  const protocol = match[1]!;
  const host = match[2]!;
  // The port follows the last ':', unless that ':' is inside an IPv6 literal (`[::1]`).
  const portStart = host.startsWith('[') ? host.indexOf(']:') + 1 : host.indexOf(':');
  const hasPort = portStart > 0;
  const hostname = hasPort ? host.slice(0, portStart) : host;
  const port = hasPort ? host.slice(portStart + 1) : '';
  const origin = `${protocol}//${host}`;
  lastOrigin = { prefix: origin, protocol, host, hostname, port };
  return {
    href,
    origin,
    protocol,
    host,
    hostname,
    port,
    pathname: match[3]!,
    search: match[4] === undefined || match[4] === '?' ? '' : match[4],
  };
}

/** The scheme and authority of the last URL split the long way: the next URL usually has the same. */
let lastOrigin:
  (Pick<TargetLocation, 'protocol' | 'host' | 'hostname' | 'port'> & { prefix: string }) | undefined;
const SLASH = 0x2f;

function fromUrl(url: URL): TargetLocation {
  const { href, protocol, host, hostname, port, pathname, search } = url;
  return { href, origin: `${protocol}//${host}`, protocol, host, hostname, port, pathname, search };
}
