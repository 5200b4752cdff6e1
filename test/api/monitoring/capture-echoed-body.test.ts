import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEchoServer } from '../../../src-server/cli/echo-server.js';
import { send, startGatewayFixture, type GatewayFixture } from '../gateway/gateway-fixture.js';
import { storedRecordOf } from './helpers.js';

/** The stored record (with its capture) of the one request whose path is exactly `path`. */
const recordOf = (fixture: GatewayFixture, path: string) => storedRecordOf(fixture.server, path);

// `gatehouse echo` sends the request body back as a string inside its JSON answer: the secrets masked in the
// captured request must not reappear in the captured response.
describe('capture of a target that echoes the request body', () => {
  let fixture: GatewayFixture;
  let echo: Server;

  beforeAll(async () => {
    fixture = await startGatewayFixture();
    fixture.server.gatehouse.gateway.setMonitoringSink(fixture.server.gatehouse.monitoring);
    echo = createEchoServer();
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    const echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
    await fixture.allowPublic();
    const record = await fixture.addApi({ basePath: '/echoed', operations: ['POST /things'] });
    await fixture.setPassthrough(record.id, {
      allOperations: { target: { section1: echoUrl, section2: '', section3: '{{#api.OperationPath}}' } },
    });
    const enabled = await fixture.server.api(`/api/v1/apis/${record.id}`, {
      method: 'PATCH',
      roles: ['Administrator'],
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ monitoringCapture: { enabled: true } }),
    });
    expect(enabled.status).toBe(200);
    await fixture.server.gatehouse.gateway.settled();
  });
  afterAll(async () => {
    await fixture.close();
    await new Promise((resolve) => echo.close(resolve));
  });

  it('masks the JSON body secrets in the echoed response too', async () => {
    const response = await send(fixture.gatewayUrl, {
      method: 'POST',
      path: '/echoed/things/json',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        user: 'ann',
        password: 'json-password-41',
        nested: { apiToken: 'json-token-42' },
      }),
    });
    expect(response.status).toBe(200);
    expect(response.text).toContain('json-password-41');

    const record = await recordOf(fixture, '/echoed/things/json');
    expect(record.capture!.response!.body!.text).toContain('ann');
    const stored = JSON.stringify(record);
    expect(stored).not.toContain('json-password-41');
    expect(stored).not.toContain('json-token-42');
  });

  it('masks the form body secrets in the echoed response too', async () => {
    const response = await send(fixture.gatewayUrl, {
      method: 'POST',
      path: '/echoed/things/form',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'user=ann&password=form-password-43&client_secret=form%2Fsecret-44',
    });
    expect(response.status).toBe(200);
    expect(response.text).toContain('form-password-43');

    const stored = JSON.stringify(await recordOf(fixture, '/echoed/things/form'));
    expect(stored).not.toContain('form-password-43');
    expect(stored).not.toContain('form%2Fsecret-44');
    expect(stored).not.toContain('form/secret-44');
  });
});
