import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { closedPort, type Upstream } from '../../helpers/upstreams.js';
import { recordsFor, send, sendRaw, startPublicEchoGateway, type GatewayFixture } from './gateway-fixture.js';

let fixture: GatewayFixture;
let upstream: Upstream;
let target: WebSocketServer;
let targetUrl: string;
const handshakes: { url: string; headers: Record<string, string | string[] | undefined> }[] = [];

beforeAll(async () => {
  ({ fixture, upstream } = await startPublicEchoGateway());
  // The target: echoes every message back, prefixed, and says which subprotocol it took.
  target = new WebSocketServer({
    port: 0,
    host: '127.0.0.1',
    handleProtocols: (protocols) => [...protocols][0] ?? false,
  });
  target.on('connection', (socket, req) => {
    handshakes.push({ url: req.url ?? '', headers: req.headers });
    socket.on('message', (data, binary) => socket.send(binary ? data : `echo: ${text(data)}`));
  });
  await new Promise((resolve) => target.once('listening', resolve));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;

  const open = await fixture.addApi({ basePath: '/ws' });
  await fixture.setPassthrough(open.id, {
    allOperations: {
      target: {
        section1: targetUrl,
        section2: 'socket',
        section3: '{{#api.OperationPath}}',
        section4: '{{#api.QueryParameters}}',
      },
      allowWebSocket: true,
      cors: { enabled: true, allowedOrigins: ['https://app.example.com'] },
    },
  });
  const closed = await fixture.addApi({ basePath: '/no-ws' });
  await fixture.setPassthrough(closed.id, {
    allOperations: { target: { section1: targetUrl, section3: '{{#api.OperationPath}}' } },
  });
});
afterAll(async () => {
  await fixture.close();
  await upstream.close();
  await new Promise((resolve) => target.close(resolve));
});

function wsUrl(path: string): string {
  return `${fixture.gatewayUrl.replace(/^http/, 'ws')}${path}`;
}

/** Opens a WebSocket through the gateway; resolves with it open, or rejects with the status of the refusal. */
function connectTo(
  path: string,
  options: { origin?: string; protocols?: string[]; headers?: Record<string, string> } = {},
): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(wsUrl(path), options.protocols ?? [], {
      origin: options.origin,
      headers: options.headers,
    });
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () =>
        reject(Object.assign(new Error(`status ${res.statusCode}`), { status: res.statusCode, body })),
      );
    });
    socket.once('error', reject);
  });
}

function nextMessage(socket: WebSocket): Promise<string> {
  return new Promise((resolve) => socket.once('message', (data) => resolve(text(data))));
}

/** A message as text: ws hands a Buffer, an ArrayBuffer or fragments, by its binaryType. */
function text(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString();
  return Buffer.isBuffer(data) ? data.toString() : Buffer.from(data).toString();
}

describe('WebSocket relay', () => {
  it('relays a handshake and messages both ways when the entry allows it, and records the session', async () => {
    const socket = await connectTo('/ws/chat?room=7', {
      origin: 'https://app.example.com',
      protocols: ['chat.v2'],
    });
    expect(socket.protocol).toBe('chat.v2');
    socket.send('hello');
    expect(await nextMessage(socket)).toBe('echo: hello');
    socket.send('x'.repeat(70_000));
    expect((await nextMessage(socket)).length).toBe(70_006);
    expect(handshakes.at(-1)).toMatchObject({
      url: '/socket/chat?room=7',
      headers: { 'x-forwarded-for': '127.0.0.1', via: '1.1 gatehouse', origin: 'https://app.example.com' },
    });
    await new Promise((resolve) => setTimeout(resolve, 150));
    await new Promise((resolve) => {
      socket.once('close', resolve);
      socket.close(1000, 'done');
    });
    const [record] = await recordsFor(fixture, '/ws/chat');
    expect(record).toMatchObject({ status: 101, outcome: 'forwarded', operation: '*', apiName: 'API /ws' });
    expect(record!.durationMs).toBeGreaterThanOrEqual(150);
    // Frames both ways: 5 + 70,000 bytes of payload out, a little more back (the "echo: " prefixes).
    expect(record!.bytesIn).toBeGreaterThan(70_000);
    expect(record!.bytesOut).toBeGreaterThan(70_010);
    expect(record!.targetUrl).toBe(`${targetUrl}/socket/chat?room=7`);
  });

  it('never relays a Try-it draft token, guessed or not, to the target of a handshake', async () => {
    const socket = await connectTo('/ws/draft', {
      headers: { 'X-Gatehouse-Try-Draft': 'guessed-token-0000000000000000' },
    });
    socket.close(1000, 'done');
    expect(handshakes.at(-1)!.url).toBe('/socket/draft');
    expect(handshakes.at(-1)!.headers['x-gatehouse-try-draft']).toBeUndefined();
  });

  it('refuses the handshake where the entry does not allow WebSocket, or the origin is not allowed', async () => {
    const before = handshakes.length;
    await expect(connectTo('/no-ws/chat')).rejects.toMatchObject({
      status: 400,
      body: expect.stringContaining('"code":"GH_ERR_WEBSOCKET_NOT_ALLOWED"') as unknown,
    });
    await expect(connectTo('/ws/chat', { origin: 'https://evil.example' })).rejects.toMatchObject({
      status: 403,
      body: expect.stringContaining('"code":"GH_ERR_ORIGIN_NOT_ALLOWED"') as unknown,
    });
    await expect(connectTo('/nowhere')).rejects.toMatchObject({ status: 404 });
    expect(handshakes.length).toBe(before);
    const records = await recordsFor(fixture, '/no-ws/chat');
    expect(records[0]).toMatchObject({ status: 400, outcome: 'refused', reason: 'websocket not allowed' });
  });

  it('refuses a handshake that is no GET, and another upgrade that carries a body, as problem+json', async () => {
    const host = new URL(fixture.gatewayUrl).host;
    const before = handshakes.length;
    const posted = await sendRaw(
      fixture.gatewayUrl,
      `POST /ws/posted HTTP/1.1\r\nHost: ${host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
        'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
    );
    expect(posted).toMatch(/^HTTP\/1\.1 400 /);
    expect(posted).toMatch(/content-type: application\/problem\+json/i);
    expect(posted).toContain('"code":"GH_ERR_BAD_WEBSOCKET_HANDSHAKE"');
    expect(handshakes.length).toBe(before);
    const requests = upstream.requests.length;
    const withBody = await sendRaw(
      fixture.gatewayUrl,
      `POST /ws-refused/h2c HTTP/1.1\r\nHost: ${host}\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n` +
        'Content-Length: 5\r\n\r\nhello',
    );
    expect(withBody).toMatch(/^HTTP\/1\.1 400 /);
    expect(withBody).toContain('"code":"GH_ERR_UPGRADE_WITH_BODY"');
    expect(upstream.requests.length).toBe(requests);
    const records = await recordsFor(fixture, '/ws/posted');
    expect(records[0]).toMatchObject({ status: 400, outcome: 'refused', reason: 'bad websocket handshake' });
  });

  it('checks policies on the handshake: an API key in the query opens it, none gets 401', async () => {
    const policy = await fixture.addPolicy({
      endpoints: [{ method: 'ALL', pathPrefix: '/keyed' }],
      grants: [{ type: 'apiKey', queryName: 'key' }],
    });
    const key = await fixture.addApiKey({ policyIds: [policy.id] });
    const api = await fixture.addApi({ basePath: '/keyed' });
    await fixture.setPassthrough(api.id, {
      allOperations: {
        target: { section1: targetUrl, section3: '{{#api.OperationPath}}' },
        allowWebSocket: true,
      },
    });
    // The public policy of the fixture covers `/`; this one is more specific and asks for a key.
    await expect(connectTo('/keyed/feed')).rejects.toMatchObject({ status: 401 });
    const socket = await connectTo(`/keyed/feed?key=${key}`);
    socket.send('ping');
    expect(await nextMessage(socket)).toBe('echo: ping');
    socket.terminate();
    const records = await recordsFor(fixture, '/keyed/feed', 2);
    expect(records.map((record) => record.status)).toEqual([401, 101]);
    // The key is taken out of the forwarded query and never shows in monitoring.
    expect(handshakes.at(-1)!.url).toBe('/feed');
    expect(JSON.stringify(records)).not.toContain(key);
  });

  it('relays a target that refuses the handshake as an ordinary answer', async () => {
    const refusing = await fixture.addApi({ basePath: '/ws-refused' });
    await fixture.setPassthrough(refusing.id, {
      allOperations: { target: { section1: upstream.url, section2: 'plain' }, allowWebSocket: true },
    });
    await expect(connectTo('/ws-refused/x')).rejects.toMatchObject({ status: 200 });
    expect(upstream.requests.at(-1)).toMatchObject({ path: '/plain', headers: { upgrade: 'websocket' } });
  });

  it('serves other upgrades as ordinary requests, and ends sessions when the listener stops', async () => {
    const h2c = await send(fixture.gatewayUrl, {
      path: '/ws-refused/h2c',
      headers: {
        connection: 'Upgrade, HTTP2-Settings',
        upgrade: 'h2c',
        'http2-settings': 'AAMAAABkAAQAAP__',
      },
    });
    expect(h2c.status).toBe(200);
    expect(upstream.requests.at(-1)!.headers.upgrade).toBeUndefined();
    expect(upstream.requests.at(-1)!.headers['http2-settings']).toBeUndefined();
    const socket = await connectTo('/ws/long', { origin: 'https://app.example.com' });
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    const port = await closedPort();
    await fixture.update((data) => {
      const group = data.agentGroups.find((candidate) => candidate.id === 'default')!;
      group.port = port;
      group.host = '127.0.0.1';
      group.updatedAt = new Date().toISOString();
    });
    expect(await closed).toBe(1006);
  });
});
