import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { tempDir } from './temp-dir.js';

/** Real target servers for gateway tests: each on loopback, on an ephemeral port. */

export interface EchoedRequest {
  method: string;
  /** The request target as the upstream received it (path and query). */
  url: string;
  path: string;
  query: string;
  /** Lower-case names; repeated headers as arrays (from the raw header lines). */
  headers: Record<string, string | string[]>;
  /** The raw header lines in order, as received. */
  rawHeaders: string[];
  bodyBytes: number;
  bodySha256: string;
}

export interface Upstream {
  url: string;
  port: number;
  /** Every request the upstream read to its end, in order. */
  requests: EchoedRequest[];
  /** Request targets as they arrived (before their bodies were read), including ones later reset. */
  arrivals: string[];
  /** Request targets whose connection closed before the upstream answered. */
  aborted: string[];
  /** Sockets the upstream accepted. */
  connections: number;
  close: () => Promise<void>;
}

export interface TlsMaterial {
  key: string;
  cert: string;
}

/**
 * Answers every request with a JSON description of it (method, path, query, headers, body size and SHA-256;
 * the body is hashed as it streams, never buffered). Query switches change the answer:
 * `status=N`, `delay=ms` (before the headers), `header=name:value` (repeatable), `bytes=N` (a streamed body of
 * N bytes instead of the JSON), `chunk=N` (chunk size for `bytes`), `reset=headers|body` (destroy the socket
 * before the headers, or after part of the body).
 */
export async function startEchoUpstream(
  options: { tls?: TlsMaterial; /** Loopback address to listen on; default 127.0.0.1. */ host?: string } = {},
): Promise<Upstream> {
  const log: UpstreamLog = { requests: [], arrivals: [], aborted: [] };
  const handler = (req: IncomingMessage, res: ServerResponse) => void echo(req, res, log);
  const server = options.tls ? createHttpsServer(options.tls, handler) : createHttpServer(handler);
  return listenUpstream(server, options.tls ? 'https' : 'http', log, options.host);
}

interface UpstreamLog {
  requests: EchoedRequest[];
  arrivals: string[];
  aborted: string[];
}

async function echo(req: IncomingMessage, res: ServerResponse, log: UpstreamLog): Promise<void> {
  const url = req.url ?? '/';
  log.arrivals.push(url);
  res.on('close', () => {
    if (!res.writableFinished) log.aborted.push(url);
  });
  const queryStart = url.indexOf('?');
  const query = queryStart === -1 ? '' : url.slice(queryStart + 1);
  const params = new URLSearchParams(query);
  const hash = createHash('sha256');
  let bodyBytes = 0;
  req.on('data', (chunk: Buffer) => {
    bodyBytes += chunk.length;
    hash.update(chunk);
  });
  if (params.get('reset') === 'headers') {
    req.socket.destroy();
    return;
  }
  await new Promise<void>((resolve) => req.on('end', resolve).on('close', resolve));
  const echoed: EchoedRequest = {
    method: req.method ?? '',
    url,
    path: queryStart === -1 ? url : url.slice(0, queryStart),
    query,
    headers: headerMap(req.rawHeaders),
    rawHeaders: req.rawHeaders,
    bodyBytes,
    bodySha256: hash.digest('hex'),
  };
  log.requests.push(echoed);
  const delay = Number(params.get('delay') ?? 0);
  if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
  if (res.destroyed) return;
  const extra = params.getAll('header').map((pair) => pair.split(/:(.*)/s, 2) as [string, string]);
  const status = Number(params.get('status') ?? 200);
  const bytes = params.get('bytes');
  if (bytes !== null) {
    res.writeHead(status, [['Content-Type', 'application/octet-stream'], ...extra].flat());
    await streamBytes(
      res,
      Number(bytes),
      Number(params.get('chunk') ?? 65_536),
      params.get('reset') === 'body',
    );
    return;
  }
  const body = JSON.stringify(echoed);
  res.writeHead(
    status,
    [
      ['Content-Type', 'application/json'],
      ['Content-Length', String(Buffer.byteLength(body))],
      ...extra,
    ].flat(),
  );
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** Writes `total` bytes (a repeating pattern) with backpressure; `reset` cuts the connection halfway. */
async function streamBytes(
  res: ServerResponse,
  total: number,
  chunkSize: number,
  reset: boolean,
): Promise<void> {
  const chunk = Buffer.alloc(Math.min(chunkSize, Math.max(total, 1)), 'gatehouse-');
  let sent = 0;
  while (sent < total) {
    if (reset && sent >= total / 2) {
      res.socket?.destroy();
      return;
    }
    const size = Math.min(chunk.length, total - sent);
    sent += size;
    if (!res.write(size === chunk.length ? chunk : chunk.subarray(0, size))) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          res.off('drain', done).off('close', done);
          resolve();
        };
        res.once('drain', done).once('close', done);
      });
      if (res.destroyed) return;
    }
  }
  res.end();
}

function headerMap(raw: string[]): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (let index = 0; index < raw.length; index += 2) {
    const name = raw[index]!.toLowerCase();
    const value = raw[index + 1]!;
    const existing = headers[name];
    headers[name] =
      existing === undefined ? value : [...(Array.isArray(existing) ? existing : [existing]), value];
  }
  return headers;
}

async function listenUpstream(
  server: Server,
  scheme: string,
  log: UpstreamLog,
  host = '127.0.0.1',
): Promise<Upstream> {
  const sockets = new Set<Socket>();
  let connections = 0;
  server.on('connection', (socket: Socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('secureConnection', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    ...log,
    get connections() {
      return connections;
    },
    close: () => closeWithSockets(server, sockets),
  };
}

/** Accepts TCP connections and never says a word: a TLS handshake with it never completes. */
export async function startSilentUpstream(): Promise<{
  url: string;
  port: number;
  close: () => Promise<void>;
}> {
  const sockets = new Set<Socket>();
  const server = createNetServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => sockets.delete(socket));
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://127.0.0.1:${port}`,
    port,
    close: () => closeWithSockets(server, sockets),
  };
}

/** A free port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const run = promisify(execFile);

/** A self-signed certificate for `localhost` and 127.0.0.1, made with openssl for this test run. */
export async function selfSignedCertificate(): Promise<TlsMaterial> {
  const dir = await tempDir('gatehouse-tls-');
  try {
    const key = join(dir.path, 'key.pem');
    const cert = join(dir.path, 'cert.pem');
    await run('openssl', [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '2',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
    ]);
    return { key: await readFile(key, 'utf8'), cert: await readFile(cert, 'utf8') };
  } finally {
    await dir.remove();
  }
}

/**
 * Answers the first request of each connection (keeping it alive) and drops the connection on the second, the way
 * a server that times out an idle keep-alive connection does when a request races its close.
 */
export async function startStaleConnectionUpstream(): Promise<{
  url: string;
  arrivals: string[];
  close: () => Promise<void>;
}> {
  const arrivals: string[] = [];
  const sockets = new Set<Socket>();
  const server = createNetServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let served = 0;
    let buffered = '';
    socket.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('latin1');
      while (buffered.includes('\r\n\r\n')) {
        const head = buffered.slice(0, buffered.indexOf('\r\n\r\n'));
        buffered = buffered.slice(buffered.indexOf('\r\n\r\n') + 4);
        arrivals.push(head.split(' ')[1] ?? '');
        if (served++ > 0) {
          socket.destroy();
          return;
        }
        socket.write(
          'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\nConnection: keep-alive\r\n\r\nfresh',
        );
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrivals,
    close: () => closeWithSockets(server, sockets),
  };
}

/**
 * A target that answers each request head with raw bytes the test writes (`answer` gets the head and the socket;
 * it may write anything: several interim responses, bytes past the body, a body on a 204). Counts connections and
 * keeps the heads it received.
 */
export async function startRawUpstream(answer: (head: string, socket: Socket) => void): Promise<{
  url: string;
  heads: string[];
  connections: number;
  close: () => Promise<void>;
}> {
  const heads: string[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createNetServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let buffered = '';
    socket.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('latin1');
      while (buffered.includes('\r\n\r\n')) {
        const head = buffered.slice(0, buffered.indexOf('\r\n\r\n'));
        buffered = buffered.slice(buffered.indexOf('\r\n\r\n') + 4);
        heads.push(head);
        answer(head, socket);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    heads,
    get connections() {
      return connections;
    },
    close: () => closeWithSockets(server, sockets),
  };
}

/** Closes a test server and the connections it still holds. */
function closeWithSockets(
  server: { close: (callback: () => void) => unknown },
  sockets: Set<Socket>,
): Promise<void> {
  return new Promise<void>((resolve) => {
    for (const socket of sockets) socket.destroy();
    server.close(() => resolve());
  });
}
