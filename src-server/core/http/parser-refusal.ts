import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { ErrorCode, statusOf, type HttpErrorCode } from '../contracts/error-codes.js';
import { newTraceId, problemTitleFor, problemTypeFor, PROBLEM_CONTENT_TYPE } from './problem.js';

/** A request Node's HTTP parser refused (malformed, a smuggling attempt, oversized headers, too slow). */
export interface ParserRefusal {
  status: number;
  code: HttpErrorCode;
  reason: string;
  title: string;
}

/** By the Node.js error code of the parser's refusal. */
const REFUSALS: Record<string, [code: HttpErrorCode, reason: string, title: string]> = {
  HPE_HEADER_OVERFLOW: [
    ErrorCode.GH_ERR_HEADERS_TOO_LARGE,
    'request headers too large',
    'Request Header Fields Too Large',
  ],
  ERR_HTTP_REQUEST_TIMEOUT: [ErrorCode.GH_ERR_REQUEST_TIMEOUT, 'request timeout', 'Request Timeout'],
  HPE_HEADERS_TIMEOUT: [ErrorCode.GH_ERR_REQUEST_TIMEOUT, 'request timeout', 'Request Timeout'],
};

export function parserRefusalOf(error: NodeJS.ErrnoException): ParserRefusal {
  const [code, reason, title] = REFUSALS[error.code ?? ''] ?? [
    ErrorCode.GH_ERR_MALFORMED_REQUEST,
    'malformed request',
    problemTitleFor(400),
  ];
  return { status: statusOf(code), code, reason, title };
}

/**
 * Answers a refused request with problem+json, as every other refusal, instead of Node's bare status line, and
 * closes the connection; a connection already gone is only destroyed. `server` names who refused (the gateway,
 * the Control Panel) in the detail.
 */
export function answerParserRefusal(
  error: NodeJS.ErrnoException,
  socket: Socket,
  refusal: ParserRefusal,
  server: string,
): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const { code, title } = refusal;
  const detail =
    refusal.status === 431
      ? `The request headers are larger than ${server} accepts.`
      : 'The request is not valid HTTP.';
  endWithProblem(socket, code, title, detail);
}

/**
 * Answers a `CONNECT` request: neither listener is a forward proxy, and without an answer Node drops the
 * connection, which a client reports as an empty reply rather than a refusal.
 */
export function answerConnectRequest(socket: Duplex, server: string): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const code = ErrorCode.GH_ERR_CONNECT_NOT_SUPPORTED;
  endWithProblem(socket, code, problemTitleFor(statusOf(code)), `${server} does not open tunnels (CONNECT).`);
}

/** Writes a whole problem+json response on a socket the HTTP server no longer answers on, and closes it. */
function endWithProblem(socket: Duplex, code: HttpErrorCode, title: string, detail: string): void {
  const status = statusOf(code);
  const body = JSON.stringify({
    type: problemTypeFor(status),
    title,
    status,
    code,
    detail,
    traceId: newTraceId(),
  });
  socket.end(
    `HTTP/1.1 ${status} ${title}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
