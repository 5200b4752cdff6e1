import { createServer, type RequestListener } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { bindServer, closeGracefully, GRACE_MS, type BoundListener } from '../core/net/listener.js';
import { answerConnectRequest, answerParserRefusal, parserRefusalOf } from '../core/http/parser-refusal.js';
import { answerHealthRequest, type HealthProbe } from '../core/health/health-endpoints.js';
import type { UpgradeListener } from './handler/upgrade-handler.js';

export interface GatewayListener extends BoundListener {
  /** Connections handed over to WebSocket sessions (the HTTP server no longer tracks them). */
  sessions: Set<Duplex>;
}

/** A request the HTTP parser refused (malformed, smuggling attempt, oversized headers), for monitoring. */
export interface MalformedRequest {
  status: number;
  reason: string;
  clientIp: string;
}

export interface GatewayListenerOptions {
  handler: RequestListener;
  upgrade: UpgradeListener;
  host: string;
  port: number;
  /** Connections open at once; the ones beyond are closed as they come (0: no limit). */
  maxConnections: number;
  onMalformed: (request: MalformedRequest) => void;
  /** Answers `/healthz` and `/readyz`. */
  health: HealthProbe;
}

/**
 * The HTTP listener of one agent group. Uploads may be long: there is no total request timeout, headers must
 * arrive within 30 s, a request body may pause for the request-body timeout at most, and a stalled exchange ends
 * with the target connection's inactivity (response) timeout. The parser is strict (no lenient flags).
 * `/healthz` and `/readyz` are answered before the gateway sees the request (no API may serve them).
 */
export async function listenGateway(options: GatewayListenerOptions): Promise<GatewayListener> {
  const { host, port, onMalformed, health } = options;
  const handler: RequestListener = (req, res) => {
    if (!answerHealthRequest(req, res, health)) options.handler(req, res);
  };
  const server = createServer(
    // A missing Host is the handler's to refuse (Node's own answer would be an empty 400).
    {
      keepAliveTimeout: 5_000,
      headersTimeout: 30_000,
      requestTimeout: 0,
      noDelay: true,
      requireHostHeader: false,
    },
    handler,
  );
  if (options.maxConnections > 0) server.maxConnections = options.maxConnections;
  // `Expect` is the handler's too: 100 Continue only once the request is forwarded, 417 as problem+json.
  server.on('checkContinue', handler);
  server.on('checkExpectation', handler);
  const sessions = new Set<Duplex>();
  server.on('upgrade', (req, socket: Duplex, head: Buffer) => {
    sessions.add(socket);
    socket.once('close', () => sessions.delete(socket));
    options.upgrade(req, socket, head);
  });
  server.on('connect', (_req, socket: Duplex) => answerConnectRequest(socket, 'The gateway'));
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    const refusal = parserRefusalOf(error);
    onMalformed({ status: refusal.status, reason: refusal.reason, clientIp: socket.remoteAddress ?? '' });
    answerParserRefusal(error, socket, refusal, 'the gateway');
  });
  const bound = await bindServer(
    server,
    host,
    port,
    () =>
      `Port ${port} on ${host} is already in use. Choose another with --gateway-port or the agent group's port (0 picks a free one).`,
  );
  return { ...bound, sessions };
}

/**
 * Stops the listener: it accepts nothing more and requests in flight (server-sent event streams too) may finish
 * up to the grace period. WebSocket sessions end at once, or with `drain` at the end of the grace period (a
 * relayed session carries frames the gateway cannot cut cleanly, so it is closed, not told to go away). Resolves
 * once every connection is gone: the server counts upgraded sockets as its connections too.
 */
export async function closeGatewayListener(
  listener: GatewayListener,
  { graceMs = GRACE_MS, drain = false }: { graceMs?: number; drain?: boolean } = {},
): Promise<void> {
  const closing = closeGracefully(listener.server, graceMs);
  const endSessions = () => {
    for (const socket of listener.sessions) socket.destroy();
  };
  if (!drain) endSessions();
  const deadline = drain ? setTimeout(endSessions, graceMs) : undefined;
  await closing;
  clearTimeout(deadline);
}
