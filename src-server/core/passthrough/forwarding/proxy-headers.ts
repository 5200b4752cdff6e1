/**
 * The headers a proxy itself adds to or changes in what it forwards: `Via` (RFC 9110 §7.6.3), `Forwarded`
 * (RFC 7239) and `Max-Forwards` (RFC 9110 §7.6.2).
 */

/** The gateway's `Via` entry: the protocol and a pseudonym, no host name or version. */
export const VIA = '1.1 gatehouse';

/** Earlier `Via` entries (a list over one or more lines) with the gateway's appended. */
export function appendVia(prior: string | string[] | undefined): string {
  if (prior === undefined || prior === '') return VIA;
  return `${Array.isArray(prior) ? prior.join(', ') : prior}, ${VIA}`;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** A `Forwarded` parameter value: a token as it is, anything else (an IPv6 address, a host with a port) quoted. */
function forwardedValue(value: string): string {
  return TOKEN.test(value) ? value : `"${value.replace(/["\\]/g, '\\$&')}"`;
}

/**
 * The client's `Forwarded` list with the gateway's element appended, as `X-Forwarded-For` is: a target that reads
 * the last element gets the address the gateway saw, whatever the client wrote before it.
 */
export function appendForwarded(
  prior: string | string[],
  clientIp: string,
  host: string | undefined,
  scheme: string,
): string {
  const node = clientIp.includes(':') ? `[${clientIp}]` : clientIp;
  let element = `for=${forwardedValue(node)}`;
  if (host !== undefined && host !== '') element += `;host=${forwardedValue(host)}`;
  element += `;proto=${scheme}`;
  return `${Array.isArray(prior) ? prior.join(', ') : prior}, ${element}`;
}

/** `Max-Forwards` one less, or undefined when the value is not a number (then it is passed on unchanged). */
export function decrementedMaxForwards(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || !/^\d{1,10}$/.test(text.trim())) return undefined;
  const number = Number(text.trim());
  return number > 0 ? String(number - 1) : undefined;
}

/** True when a request must be answered by the gateway, not forwarded: OPTIONS or TRACE with `Max-Forwards: 0`. */
export function stopsHere(method: string, maxForwards: string | string[] | undefined): boolean {
  if (method !== 'OPTIONS' && method !== 'TRACE') return false;
  const text = Array.isArray(maxForwards) ? maxForwards[0] : maxForwards;
  return text !== undefined && /^\s*0+\s*$/.test(text);
}
