import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EchoedRequest } from '../../src-server/core/net/echo.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { importApi, json, sample, send } from './management/helpers.js';

/** An address of this machine that is not loopback, if it has one. */
function externalAddress(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((candidate) => candidate?.family === 'IPv4' && !candidate.internal)?.address;
}

describe('the built-in echo target of the Control Panel', () => {
  let server: TestServer;
  let echoUrl: string;

  beforeAll(async () => {
    server = await startTestServer();
    echoUrl = (await json<{ echoTargetUrl: string }>(await server.api('/api/v1/tenant/control-panel')))
      .echoTargetUrl;
  });
  afterAll(() => server.close());

  it('is named by the Control Panel status and answers any request with the request it received', async () => {
    expect(echoUrl).toBe(`${server.url}/echo`);
    const response = await fetch(`${echoUrl}/orders/42?expand=lines`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'text/plain', 'X-Probe': 'p1' },
      body: 'hello',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(await json<EchoedRequest>(response)).toMatchObject({
      method: 'PATCH',
      url: '/echo/orders/42?expand=lines',
      headers: { 'x-probe': 'p1' },
      body: 'hello',
      bodyBytes: 5,
    });
    // No bearer token needed.
    expect((await fetch(echoUrl)).status).toBe(200);
  });

  it('is what a first passthrough can forward to: the echo shows what the gateway sent', async () => {
    const api = await importApi(server, await sample('orders-api.openapi.yaml'), {
      contentType: 'application/yaml',
    });
    const created = await send(server, 'POST', `/api/v1/apis/${api.id}/passthrough`, {
      allOperations: {
        target: {
          section1: server.url,
          section2: 'echo',
          section3: '{{#api.OperationPath}}',
          section4: '{{#api.QueryParameters}}',
        },
      },
      policy: { name: 'Echo, public', grants: [{ type: 'public' }] },
    });
    expect(created.status).toBe(201);
    await server.gatehouse.gateway.settled();
    const through = await fetch(`${server.gatewayUrl}/orders-api/v1/orders/A-1001?expand=lines`);
    expect(through.status).toBe(200);
    const echoed = await json<EchoedRequest>(through);
    expect(echoed.url).toBe('/echo/orders/A-1001?expand=lines');
    expect(echoed.headers.traceparent).toBeDefined();
  });

  it('does not exist for callers on other machines', async () => {
    const address = externalAddress();
    if (!address) return; // A machine with loopback only cannot be called from elsewhere either.
    // The Host guard lets the address through, so the echo target itself answers.
    const open = await startTestServer({
      host: '0.0.0.0',
      settings: { 'ControlPanel:AllowedHosts': address },
    });
    try {
      const port = new URL(open.url).port;
      const response = await fetch(`http://${address}:${port}/echo`);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toContain('application/problem+json');
      expect((await fetch(`${open.url}/echo`)).status).toBe(200);
    } finally {
      await open.close();
    }
  });
});
