import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Upstream } from '../../helpers/upstreams.js';
import { recordsFor, send, sendRaw, startPublicEchoGateway, type GatewayFixture } from './gateway-fixture.js';

let fixture: GatewayFixture;
let upstream: Upstream;
let host: string;

beforeAll(async () => {
  ({ fixture, upstream } = await startPublicEchoGateway(
    {},
    { server: { settings: { 'Gateway:RequestBodyTimeoutSeconds': 1, 'Gateway:MaxConnections': 3 } } },
  ));
  host = new URL(fixture.gatewayUrl).host;
  const api = await fixture.addApi({ basePath: '/limits' });
  await fixture.setPassthrough(api.id, {
    allOperations: { target: { section1: upstream.url, section3: '{{#api.OperationPath}}' } },
  });
});
afterAll(async () => {
  await fixture.close();
  await upstream.close();
});

function open(): Promise<Socket> {
  const url = new URL(fixture.gatewayUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => resolve(socket));
    socket.on('error', reject);
  });
}

describe('listener limits (settings)', () => {
  it('answers 408 when a request body stalls longer than Gateway:RequestBodyTimeoutSeconds', async () => {
    const response = await sendRaw(
      fixture.gatewayUrl,
      `POST /limits/slow HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 100\r\n\r\nonly part of it`,
      3_000,
    );
    expect(response).toMatch(/^HTTP\/1\.1 408 /);
    expect(response).toContain('"status":408');
    expect(response).toContain('"code":"GH_ERR_REQUEST_BODY_TIMEOUT"');
    const [record] = await recordsFor(fixture, '/limits/slow');
    expect(record).toMatchObject({ status: 408, outcome: 'timeout', reason: 'request body timeout' });
  });

  it('keeps a body that keeps moving, however slow in total', async () => {
    const socket = await open();
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.write(
      `POST /limits/steady HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 6\r\nConnection: close\r\n\r\n`,
    );
    for (const part of ['ab', 'cd', 'ef']) {
      await new Promise((resolve) => setTimeout(resolve, 600));
      socket.write(part);
    }
    await new Promise((resolve) => socket.on('close', resolve));
    expect(Buffer.concat(chunks).toString()).toMatch(/^HTTP\/1\.1 200 [\s\S]*"bodyBytes":6/);
  });

  it('closes connections beyond Gateway:MaxConnections as they come', async () => {
    const held = await Promise.all([open(), open(), open()]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const extra = await open();
    const closed = await new Promise<boolean>((resolve) => {
      extra.on('close', () => resolve(true));
      setTimeout(() => resolve(false), 2_000);
    });
    expect(closed).toBe(true);
    for (const socket of held) socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await send(fixture.gatewayUrl, { path: '/limits/after' })).status).toBe(200);
  });
});
