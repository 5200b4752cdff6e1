import type { IncomingMessage } from 'node:http';
import {
  connectionListedHeaders,
  isHopByHop,
  mayBeHopByHopLength,
} from '../../core/passthrough/forwarding/index.js';
import { isCorsResponseHeader, type CorsHeaders } from '../cors/cors.js';

/**
 * The target's response headers as relayed: in their order and spelling, duplicates kept, without hop-by-hop
 * headers; with CORS on, the target's own `Access-Control-*` headers give way to the gateway's. Works on the raw
 * header lines (the parsed `headers` object is never built).
 */
export function relayedResponseHeaders(response: IncomingMessage, cors: CorsHeaders | undefined): string[] {
  const raw = response.rawHeaders;
  let listed: Set<string> | undefined;
  for (let index = 0; index < raw.length; index += 2) {
    const name = raw[index]!;
    if (name.length === 10 && (name === 'Connection' || name.toLowerCase() === 'connection')) {
      for (const listedName of connectionListedHeaders(raw[index + 1]) ?? [])
        (listed ??= new Set()).add(listedName);
    }
  }
  const relayed: string[] = [];
  for (let index = 0; index < raw.length; index += 2) {
    const name = raw[index]!;
    // Only a name that might be dropped is lower-cased (most are not: their length tells).
    if (
      listed !== undefined ||
      mayBeHopByHopLength(name.length) ||
      (cors !== undefined && name.length >= CORS_PREFIX_LENGTH)
    ) {
      const lower = name.toLowerCase();
      if (isHopByHop(lower, listed)) continue;
      if (cors && isCorsResponseHeader(lower)) continue;
    }
    relayed.push(name, raw[index + 1]!);
  }
  if (cors) for (const [name, value] of cors) relayed.push(name, value);
  return relayed;
}

/** `access-control-` */
const CORS_PREFIX_LENGTH = 15;
