import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { startServeProcess } from '../../helpers/cli-process.js';
import { prepareDataDir, type PreparedDataDir } from '../../helpers/team-data-dir.js';

// The target: a server-sent event every 100 ms on /events, and WebSocket sessions that echo on /socket.
let target: Server;
let sockets: WebSocketServer;
let dataDir: PreparedDataDir;

beforeAll(async () => {
  target = createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store' });
    let n = 0;
    const timer = setInterval(() => res.write(`data: ${n++}\n\n`), 100);
    res.on('close', () => clearInterval(timer));
  });
  sockets = new WebSocketServer({ server: target });
  // Text messages only here: ws hands each as one Buffer (its default binaryType).
  sockets.on('connection', (socket) =>
    socket.on('message', (data: Buffer) => socket.send(`echo: ${data.toString('utf8')}`)),
  );
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
  dataDir = await prepareDataDir({ basePath: '/live', target: url, grant: 'public', allowWebSocket: true });
});
afterAll(async () => {
  sockets.close();
  target.closeAllConnections();
  await new Promise((resolve) => target.close(resolve));
  await dataDir.remove();
});

/** An event stream through the gateway: the times its events arrived, and when it ended. */
function openEventStream(gatewayUrl: string) {
  const stream = { events: [] as number[], endedAt: undefined as number | undefined };
  const ended = new Promise<void>((resolve) => {
    const req = request(`${gatewayUrl}/live/events`, (res) => {
      res.on('data', () => stream.events.push(Date.now()));
      res.on('close', () => {
        stream.endedAt = Date.now();
        resolve();
      });
    });
    req.on('error', () => {
      stream.endedAt ??= Date.now();
      resolve();
    });
    req.end();
  });
  return { stream, ended };
}

/** Sends a message and waits for the target's echo; fails when the session is closed meanwhile. */
function echo(socket: WebSocket, message: string): Promise<string> {
  return new Promise((resolve, reject) => {
    if (socket.readyState !== WebSocket.OPEN) {
      reject(new Error('the session is closed'));
      return;
    }
    const closed = () => reject(new Error('the session closed before the echo'));
    socket.once('close', closed);
    socket.once('message', (data: Buffer) => {
      socket.off('close', closed);
      resolve(data.toString('utf8'));
    });
    socket.send(message);
  });
}

describe('SIGTERM with long-lived exchanges in flight', () => {
  it('keeps WebSocket sessions and event streams going while draining, and closes them at the deadline', async () => {
    const server = await startServeProcess(dataDir.path, ['--set', 'Shutdown:DrainSeconds=2']);
    const socket = new WebSocket(`${server.gatewayUrl.replace(/^http/, 'ws')}/live/socket`);
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now())));
    expect(await echo(socket, 'before')).toBe('echo: before');
    const { stream, ended } = openEventStream(server.gatewayUrl);
    while (stream.events.length < 2) await new Promise((resolve) => setTimeout(resolve, 20));

    const signalledAt = Date.now();
    server.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 800));
    // Draining: the session still relays both ways and the stream still flows.
    expect(await echo(socket, 'while draining')).toBe('echo: while draining');
    expect(stream.events.some((at) => at > signalledAt + 500)).toBe(true);
    // New connections are refused meanwhile.
    await expect(fetch(`${server.gatewayUrl}/live/events`)).rejects.toThrow();

    const code = await server.exited;
    const closedAt = await closed;
    await ended;
    expect(code, server.output()).toBe(0);
    // Both were ended by the drain deadline (2 s), not before. Neither ends on its own (the session echoes, the
    // stream writes every 100 ms): had the process waited for them, the test would end by its timeout.
    for (const endedAt of [closedAt, stream.endedAt!])
      expect(endedAt - signalledAt).toBeGreaterThanOrEqual(1_800);
  }, 60_000);
});
