/**
 * Hop-by-hop headers (RFC 9110 §7.6.1) describe one connection, not the message: a proxy never passes them on.
 * `proxy-connection` and `keep-alive` are the pre-standard spellings clients still send.
 */
export const HOP_BY_HOP_HEADERS: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** The header names a `Connection` value lists (`close, X-Debug` → `x-debug`), lower-cased. */
export function connectionListedHeaders(value: string | string[] | undefined): Set<string> | undefined {
  if (value === undefined || value === 'keep-alive' || value === 'close') return undefined;
  const text = Array.isArray(value) ? value.join(',') : value;
  let names: Set<string> | undefined;
  for (const token of text.split(',')) {
    const name = token.trim().toLowerCase();
    if (name === '' || name === 'close' || name === 'keep-alive') continue;
    (names ??= new Set()).add(name);
  }
  return names;
}

/** Flags by name length: most headers are told apart from the hop-by-hop ones by their length alone. */
const HOP_BY_HOP_LENGTHS = new Uint8Array(32);
for (const name of HOP_BY_HOP_HEADERS) HOP_BY_HOP_LENGTHS[name.length] = 1;

/** False when no hop-by-hop name has this length (most headers): the name need not even be lower-cased. */
export function mayBeHopByHopLength(length: number): boolean {
  return HOP_BY_HOP_LENGTHS[length] === 1;
}

/** True when a header must not cross the gateway: hop-by-hop, or named by the message's own `Connection`. */
export function isHopByHop(lowerName: string, connectionListed: ReadonlySet<string> | undefined): boolean {
  if (HOP_BY_HOP_LENGTHS[lowerName.length] === 1 && HOP_BY_HOP_HEADERS.has(lowerName)) return true;
  return connectionListed !== undefined && connectionListed.has(lowerName);
}
