import { createServer, type RequestListener } from 'node:http';
import type { Socket } from 'node:net';
import { bindServer, type BoundListener } from '../core/net/listener.js';
import { ErrorCode, statusOf, type HttpErrorCode } from '../core/errors/error-codes.js';
import { newTraceId, problemTitleFor, problemTypeFor, PROBLEM_CONTENT_TYPE } from '../core/http/problem.js';
import { answerHealthRequest, type HealthProbe } from '../core/health/health-endpoints.js';

export type GatewayListener = BoundListener;

/** A request the HTTP parser refused (malformed, smuggling attempt, oversized headers), for monitoring. */
export interface MalformedRequest {
  status: number;
  reason: string;
  clientIp: string;
}

/** By the Node.js error code of the parser's refusal. */
const CLIENT_ERROR: Record<string, [code: HttpErrorCode, reason: string, title: string]> = {
  HPE_HEADER_OVERFLOW: [
    ErrorCode.GH_ERR_HEADERS_TOO_LARGE,
    'request headers too large',
    'Request Header Fields Too Large',
  ],
  ERR_HTTP_REQUEST_TIMEOUT: [ErrorCode.GH_ERR_REQUEST_TIMEOUT, 'request timeout', 'Request Timeout'],
  HPE_HEADERS_TIMEOUT: [ErrorCode.GH_ERR_REQUEST_TIMEOUT, 'request timeout', 'Request Timeout'],
};

/**
 * The HTTP listener of one agent group. Uploads may be long: there is no total request timeout, headers must
 * arrive within 30 s, and a stalled exchange ends with the target connection's inactivity (response) timeout.
 * The parser is strict (no lenient flags). `/healthz` and `/readyz` are answered before the gateway sees the
 * request (no API may serve them).
 */
export async function listenGateway(
  handler: RequestListener,
  host: string,
  port: number,
  onMalformed: (request: MalformedRequest) => void,
  health: HealthProbe,
): Promise<GatewayListener> {
  const server = createServer(
    { keepAliveTimeout: 5_000, headersTimeout: 30_000, requestTimeout: 0, noDelay: true },
    (req, res) => {
      if (!answerHealthRequest(req, res, health)) handler(req, res);
    },
  );
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    const [code, reason, title] = CLIENT_ERROR[error.code ?? ''] ?? [
      ErrorCode.GH_ERR_MALFORMED_REQUEST,
      'malformed request',
      problemTitleFor(400),
    ];
    const status = statusOf(code);
    onMalformed({ status, reason, clientIp: socket.remoteAddress ?? '' });
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const body = JSON.stringify({
      type: problemTypeFor(status),
      title,
      status,
      code,
      detail: 'The request is not valid HTTP.',
      traceId: newTraceId(),
    });
    socket.end(
      `HTTP/1.1 ${status} ${title}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  return bindServer(
    server,
    host,
    port,
    () =>
      `Port ${port} on ${host} is already in use. Choose another with --gateway-port or the agent group's port (0 picks a free one).`,
  );
}
