import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { ErrorCode } from '../contracts/error-codes.js';
import { GatehouseError } from '../errors/gatehouse-error.js';
import { answerConnectRequest, answerParserRefusal, parserRefusalOf } from '../http/parser-refusal.js';

/** How long a stopping listener lets requests in flight finish unless told otherwise. */
export const GRACE_MS = 10_000;

export interface BoundListener {
  server: Server;
  host: string;
  port: number;
  url: string;
}

/** The port is taken; the message says which option picks another. */
export class AddressInUseError extends GatehouseError {
  override name = 'AddressInUseError';
  constructor(message: string) {
    super(ErrorCode.GH_ERR_ADDRESS_IN_USE, message);
  }
}

/** Whether `host:port` is taken by another listener now (a probe: binds and lets go at once). */
export async function isPortInUse(host: string, port: number): Promise<boolean> {
  const probe = createServer();
  return new Promise((resolve) => {
    probe.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'EADDRINUSE'));
    probe.listen(port, host, () => probe.close(() => resolve(false)));
  });
}

export function urlOf(host: string, port: number): string {
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${port}`;
}

export async function listen(handler: RequestListener, host: string, port: number): Promise<BoundListener> {
  const server = createServer(
    { keepAliveTimeout: 5_000, requestTimeout: 300_000, headersTimeout: 60_000 },
    handler,
  );
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) =>
    answerParserRefusal(error, socket, parserRefusalOf(error), 'the Control Panel'),
  );
  server.on('connect', (_req, socket: Duplex) => answerConnectRequest(socket, 'The Control Panel'));
  return bindServer(
    server,
    host,
    port,
    () => `Port ${port} on ${host} is already in use. Choose another with --port (0 picks a free one).`,
  );
}

/**
 * Starts `server` listening on `host:port`. A port in use fails with an `AddressInUseError` whose message
 * `portInUse` writes (it says which option picks another port); other listen errors are passed on as they are.
 */
export async function bindServer(
  server: Server,
  host: string,
  port: number,
  portInUse: () => string,
): Promise<BoundListener> {
  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      reject(error.code === 'EADDRINUSE' ? new AddressInUseError(portInUse()) : error);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
  const address = server.address() as AddressInfo;
  return { server, host, port: address.port, url: urlOf(host, address.port) };
}

/**
 * Stops accepting, lets in-flight requests finish (up to a grace period), then closes what is left. A request
 * that still arrives on a kept-alive connection is answered with `Connection: close`, so clients that keep
 * sending move on instead of holding the connection open until the grace period ends.
 */
export async function closeGracefully(server: Server, graceMs = GRACE_MS): Promise<void> {
  server.prependListener('request', (_req, res) => {
    res.shouldKeepAlive = false;
  });
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // Keep-alive connections whose request finishes after close() would otherwise linger until the grace period.
  const sweep = setInterval(() => server.closeIdleConnections(), 25);
  const timer = setTimeout(() => server.closeAllConnections(), graceMs);
  server.closeIdleConnections();
  await closed;
  clearInterval(sweep);
  clearTimeout(timer);
}
