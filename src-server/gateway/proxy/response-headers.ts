import {
  connectionListedHeaders,
  isHopByHop,
  mayBeHopByHopLength,
  VIA,
} from '../../core/passthrough/forwarding/index.js';
import { isCorsResponseHeader, type CorsHeaders } from '../cors/cors.js';

/** What the relay learns of the target's response while it copies the headers. */
export interface RelayedHead {
  /** Header lines as `writeHead` takes them: name, value, name, value… */
  headers: string[];
  /** `text/event-stream`: a long-lived stream whose quiet moments are normal. */
  eventStream: boolean;
}

/**
 * The target's response headers as relayed: in their order and spelling, duplicates kept, without hop-by-hop
 * headers; with CORS on, the target's own `Access-Control-*` headers give way to the gateway's; `Via` added
 * (RFC 9110 §7.6.3: each message a proxy forwards names it).
 * Works on undici's raw header buffers (no parsed header object is built).
 */
export function relayedResponseHeaders(raw: readonly Buffer[], cors: CorsHeaders | undefined): RelayedHead {
  let listed: Set<string> | undefined;
  const texts: string[] = new Array<string>(raw.length);
  for (let index = 0; index < raw.length; index += 2) {
    const name = raw[index]!.toString('latin1');
    const value = raw[index + 1]!.toString('latin1');
    texts[index] = name;
    texts[index + 1] = value;
    if (name.length === 10 && name.toLowerCase() === 'connection') {
      for (const listedName of connectionListedHeaders(value) ?? []) (listed ??= new Set()).add(listedName);
    }
  }
  const headers: string[] = [];
  let eventStream = false;
  for (let index = 0; index < texts.length; index += 2) {
    const name = texts[index]!;
    // Only a name that might be dropped or read is lower-cased (most are not: their length tells).
    if (
      listed !== undefined ||
      mayBeHopByHopLength(name.length) ||
      name.length === CONTENT_TYPE_LENGTH ||
      (cors !== undefined && name.length >= CORS_PREFIX_LENGTH)
    ) {
      const lower = name.toLowerCase();
      if (isHopByHop(lower, listed)) continue;
      if (cors && isCorsResponseHeader(lower)) continue;
      if (lower === 'content-type' && texts[index + 1]!.toLowerCase().startsWith('text/event-stream')) {
        eventStream = true;
      }
    }
    headers.push(name, texts[index + 1]!);
  }
  if (cors) for (const [name, value] of cors) headers.push(name, value);
  headers.push('Via', VIA);
  return { headers, eventStream };
}

/** `access-control-` */
const CORS_PREFIX_LENGTH = 15;
const CONTENT_TYPE_LENGTH = 12;
