/** The parts of a target URL a request to it needs, in the form node's URL gives them. */
export interface TargetLocation {
  href: string;
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
  const match = CANONICAL.exec(href);
  if (!match) return fromUrl(new URL(href));
  const host = match[2]!;
  const portStart = host.lastIndexOf(':');
  const hasPort = portStart !== -1 && host.indexOf(']', portStart) === -1;
  return {
    href,
    protocol: match[1]!,
    host,
    hostname: hasPort ? host.slice(0, portStart) : host,
    port: hasPort ? host.slice(portStart + 1) : '',
    pathname: match[3]!,
    // URL gives an empty query (`x?`) as no query at all.
    search: match[4] === undefined || match[4] === '?' ? '' : match[4],
  };
}

function fromUrl(url: URL): TargetLocation {
  const { href, protocol, host, hostname, port, pathname, search } = url;
  return { href, protocol, host, hostname, port, pathname, search };
}
