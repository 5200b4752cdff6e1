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
  /**
   * The body's length when the target declared exactly one valid `Content-Length` (and no `Transfer-Encoding`):
   * the relay then knows which chunk is the last one. Undefined otherwise.
   */
  contentLength: number | undefined;
}

/**
 * The target's response headers as relayed: in their order and spelling, duplicates kept, without hop-by-hop
 * headers; with CORS on, the target's own `Access-Control-*` headers give way to the gateway's; `Via` added
 * (RFC 9110 §7.6.3: each message a proxy forwards names it).
 * Works on undici's raw header buffers (no parsed header object is built), in one pass unless the response
 * carries a `Connection` header (whose listed names must be known before any header is copied).
 */
export function relayedResponseHeaders(raw: readonly Buffer[], cors: CorsHeaders | undefined): RelayedHead {
  const listed = connectionListed(raw);
  const headers: string[] = [];
  let eventStream = false;
  let contentLength: number | undefined;
  let lengths = 0;
  for (let index = 0; index < raw.length; index += 2) {
    const name = raw[index]!.toString('latin1');
    const value = raw[index + 1]!.toString('latin1');
    // Only a name that might be dropped or read is lower-cased (most are not: their length tells).
    const length = name.length;
    if (
      listed !== undefined ||
      mayBeHopByHopLength(length) ||
      length === CONTENT_TYPE_LENGTH ||
      length === CONTENT_LENGTH_LENGTH ||
      (cors !== undefined && length >= CORS_PREFIX_LENGTH)
    ) {
      const lower = name.toLowerCase();
      if (lower === 'transfer-encoding') lengths = -1;
      if (isHopByHop(lower, listed)) continue;
      if (cors && isCorsResponseHeader(lower)) continue;
      if (lower === 'content-type' && value.toLowerCase().startsWith('text/event-stream')) {
        eventStream = true;
      } else if (lower === 'content-length' && lengths >= 0) {
        lengths++;
        contentLength = DIGITS.test(value) ? Number(value) : undefined;
      }
    }
    headers.push(name, value);
  }
  if (cors) for (const [name, value] of cors) headers.push(name, value);
  headers.push('Via', VIA);
  return { headers, eventStream, contentLength: lengths === 1 ? contentLength : undefined };
}

/** The names the response's `Connection` header lists, if it has one (most responses have none). */
function connectionListed(raw: readonly Buffer[]): Set<string> | undefined {
  let listed: Set<string> | undefined;
  for (let index = 0; index < raw.length; index += 2) {
    const name = raw[index]!;
    if (name.length !== CONNECTION_LENGTH || name.toString('latin1').toLowerCase() !== 'connection') continue;
    for (const listedName of connectionListedHeaders(raw[index + 1]!.toString('latin1')) ?? []) {
      (listed ??= new Set()).add(listedName);
    }
  }
  return listed;
}

/** `access-control-` */
const CORS_PREFIX_LENGTH = 15;
const CONTENT_TYPE_LENGTH = 12;
const CONTENT_LENGTH_LENGTH = 14;
const CONNECTION_LENGTH = 10;
/** A length undici has already parsed the body by; at most 15 digits stay exact as a number. */
const DIGITS = /^\d{1,15}$/;
