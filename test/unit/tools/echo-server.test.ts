import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEchoServer, type EchoedRequest } from '../../../src-server/cli/echo-server.js';

describe('gatehouse echo target', () => {
  const server = createEchoServer();
  let url: string;

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers with the method, raw URL, headers and body it received', async () => {
    const response = await fetch(`${url}/v2/orders/A%2F1?expand=lines&x=1`, {
      method: 'POST',
      headers: { 'X-Upstream-Key': 'k1', 'Content-Type': 'text/plain' },
      body: 'hello',
    });
    expect(response.status).toBe(200);
    const echoed = (await response.json()) as EchoedRequest;
    expect(echoed).toMatchObject({
      method: 'POST',
      url: '/v2/orders/A%2F1?expand=lines&x=1',
      body: 'hello',
      bodyBytes: 5,
    });
    expect(echoed.headers['x-upstream-key']).toBe('k1');
  });

  it('echoes at most 64 KiB of a body but counts all of it', async () => {
    const body = 'x'.repeat(200 * 1024);
    const echoed = (await (await fetch(url, { method: 'PUT', body })).json()) as EchoedRequest;
    expect(echoed.bodyBytes).toBe(body.length);
    expect(echoed.body.length).toBe(64 * 1024);
  });
});
