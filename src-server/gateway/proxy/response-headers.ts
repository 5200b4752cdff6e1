import type { IncomingMessage } from 'node:http';
import { connectionListedHeaders, isHopByHop } from '../../passthrough/forwarding/index.js';
import { isCorsResponseHeader, type CorsHeaders } from '../cors.js';

/**
 * The target's response headers as relayed: in their order and spelling, duplicates kept, without hop-by-hop
 * headers; with CORS on, the target's own `Access-Control-*` headers give way to the gateway's. Works on the raw
 * header lines (the parsed `headers` object is never built).
 */
export function relayedResponseHeaders(response: IncomingMessage, cors: CorsHeaders | undefined): string[] {
  const raw = response.rawHeaders;
  let listed: Set<string> | undefined;
  for (let index = 0; index < raw.length; index += 2) {
    if (raw[index]!.length === 10 && raw[index]!.toLowerCase() === 'connection') {
      for (const name of connectionListedHeaders(raw[index + 1]) ?? []) (listed ??= new Set()).add(name);
    }
  }
  const relayed: string[] = [];
  for (let index = 0; index < raw.length; index += 2) {
    const name = raw[index]!;
    const lower = name.toLowerCase();
    if (isHopByHop(lower, listed)) continue;
    if (cors && isCorsResponseHeader(lower)) continue;
    relayed.push(name, raw[index + 1]!);
  }
  if (cors) for (const [name, value] of cors) relayed.push(name, value);
  return relayed;
}
