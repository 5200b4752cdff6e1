import type { IncomingMessage } from 'node:http';
import { ErrorCode, type HttpErrorCode } from '../../core/contracts/error-codes.js';
import { judgeOrigin } from '../cors/cors.js';
import type { Endpoint } from '../runtime/route-table.js';

const AUTHORITY =
  /^(?:[A-Za-z0-9._~!$&'()*+,;=-]|%[0-9A-Fa-f]{2})+(?::\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](?::\d{1,5})?$/;

/**
 * An HTTP/1.1 request's `Expect` (RFC 9110 §10.1.1): `100-continue` is met once the request is on its way to the
 * target (a refused request gets its final answer and never the body); anything else is refused with 417.
 * HTTP/1.0 requests' expectations are ignored, as the RFC says.
 */
export function checkExpect(req: IncomingMessage): 'continue' | 'unsupported' | undefined {
  const expect = req.headers.expect;
  if (expect === undefined || req.httpVersion === '1.0') return undefined;
  return expect.trim().toLowerCase() === '100-continue' ? 'continue' : 'unsupported';
}

/** One Host header naming an authority (it becomes `X-Forwarded-Host`; the target never depends on it). */
export function checkHost(req: IncomingMessage): string | undefined {
  const raw = req.rawHeaders;
  let hosts = 0;
  for (let index = 0; index < raw.length; index += 2) {
    const name = raw[index]!;
    if (name.length === 4 && (name === 'Host' || name === 'host' || name.toLowerCase() === 'host')) hosts++;
  }
  if (hosts > 1) return 'The request must have one Host header.';
  const host = req.headers.host;
  // RFC 9112 §3.2: an HTTP/1.1 request without Host is refused; HTTP/1.0 may omit it.
  if (host === undefined)
    return req.httpVersion === '1.0' ? undefined : 'The request must have a Host header.';
  if (host === lastValidHost) return undefined;
  if (!AUTHORITY.test(host)) return 'The Host header is not a valid host name.';
  lastValidHost = host;
  return undefined;
}

/** Clients send the same Host over and over: the last one found valid is not checked again. */
let lastValidHost: string | undefined;

/** Why a WebSocket handshake is refused at this endpoint, or undefined when it may go on to the target. */
export function webSocketRefusal(
  endpoint: Endpoint,
  method: string,
  origin: string | undefined,
): { code: HttpErrorCode; detail: string; reason: string } | undefined {
  if (!endpoint.entry.allowWebSocket) {
    return {
      code: ErrorCode.GH_ERR_WEBSOCKET_NOT_ALLOWED,
      detail: 'This endpoint does not accept WebSocket connections.',
      reason: 'websocket not allowed',
    };
  }
  if (method !== 'GET') {
    return {
      code: ErrorCode.GH_ERR_BAD_WEBSOCKET_HANDSHAKE,
      detail: 'A WebSocket handshake is a GET request.',
      reason: 'bad websocket handshake',
    };
  }
  // Browsers send their origin on a handshake and never a preflight: with CORS on, it must be an allowed one.
  if (endpoint.cors && origin !== undefined && !judgeOrigin(endpoint.cors, origin).allowed) {
    return {
      code: ErrorCode.GH_ERR_ORIGIN_NOT_ALLOWED,
      detail: 'This origin may not open WebSocket connections to this endpoint.',
      reason: 'websocket origin not allowed',
    };
  }
  return undefined;
}
