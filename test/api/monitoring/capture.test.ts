import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiDefinition } from '../../../src-server/core/contracts/index.js';
import { startEchoUpstream, type Upstream } from '../../helpers/upstreams.js';
import { send, startGatewayFixture, type GatewayFixture } from '../gateway/gateway-fixture.js';
import { getJson, storedRecordOf } from './helpers.js';

const SECRET = 'top-secret-backend-key';
const CALLER_TOKEN = 'caller-bearer-token-123';

/** The stored record (with its capture) of the one request whose path is exactly `path`. */
const recordOf = (fixture: GatewayFixture, path: string) => storedRecordOf(fixture.server, path);

describe('capture of request and response headers and bodies in API monitoring', () => {
  let fixture: GatewayFixture;
  let upstream: Upstream;
  let api: ApiDefinition;

  async function setCapture(body: unknown, roles = ['Administrator']) {
    const response = await fixture.server.api(`/api/v1/apis/${api.id}`, {
      method: 'PATCH',
      roles,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    await fixture.server.gatehouse.gateway.settled();
    return response;
  }

  beforeAll(async () => {
    fixture = await startGatewayFixture();
    fixture.server.gatehouse.gateway.setMonitoringSink(fixture.server.gatehouse.monitoring);
    upstream = await startEchoUpstream();
    await fixture.allowPublic();
    await fixture.setVariable('backend', { url: upstream.url, key: SECRET }, { secret: ['key'] });
    const record = await fixture.addApi({ basePath: '/cap', operations: ['POST /things'] });
    await fixture.setPassthrough(record.id, {
      allOperations: {
        target: {
          section1: '{{#env.backend.url}}',
          section2: 'all',
          section3: '{{#api.OperationPath}}',
          section4: '{{#api.QueryParameters}}',
        },
        // The echo target sends this back in its body: the capture must not show it.
        headers: [{ action: 'Overwrite', name: 'X-Backend', value: 'key {{#env.backend.key}}' }],
      },
    });
    api = await getJson<ApiDefinition>(fixture.server, `/api/v1/apis/${record.id}`, ['Administrator']);
  });
  afterAll(async () => {
    await fixture.close();
    await upstream.close();
  });

  it('is off by default: records carry no headers or bodies', async () => {
    expect(api.monitoringCapture).toEqual({ enabled: false, maxBodyBytes: 16_384 });
    await send(fixture.gatewayUrl, { method: 'POST', path: '/cap/things/off', body: 'not kept' });
    const record = await recordOf(fixture, '/cap/things/off');
    expect(record.capture).toBeUndefined();
    expect(JSON.stringify(record)).not.toContain('not kept');
  });

  it('refuses bad settings with a problem naming the field', async () => {
    for (const bad of [
      { monitoringCapture: { enabled: 'yes' } },
      { monitoringCapture: { enabled: true, maxBodyBytes: -1 } },
      { monitoringCapture: { enabled: true, maxBodyBytes: 1_048_577 } },
      { monitoringCapture: { enabled: true, extra: 1 } },
    ]) {
      const response = await setCapture(bad);
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      const problem = (await response.json()) as { errors: Record<string, string[]> };
      expect(Object.keys(problem.errors).join()).toContain('monitoringCapture');
    }
    // Reading roles may not turn it on.
    expect((await setCapture({ monitoringCapture: { enabled: true } }, ['Auditor'])).status).toBe(403);
  });

  it('keeps the exchange as it went over the wire, with every kind of secret masked', async () => {
    const enabled = await setCapture({ monitoringCapture: { enabled: true } });
    expect(enabled.status).toBe(200);
    expect(((await enabled.json()) as ApiDefinition).monitoringCapture).toEqual({
      enabled: true,
      maxBodyBytes: 16_384,
    });
    const body = JSON.stringify({ name: 'widget', password: 'hunter2-secret' });
    const response = await send(fixture.gatewayUrl, {
      method: 'POST',
      path: '/cap/things?api_key=query-key-999&x=1',
      headers: {
        'Content-Type': 'application/json',
        Authorization: `Bearer ${CALLER_TOKEN}`,
        Cookie: 'session=cookie-value-456',
        'X-Trace': 'visible-trace',
      },
      body,
    });
    expect(response.status).toBe(200);
    // The target really did receive the secret, and echoed it back.
    expect(response.text).toContain(SECRET);

    const record = await recordOf(fixture, '/cap/things');
    expect(record).toMatchObject({ operation: 'POST /things', viaAllOperations: true });
    const capture = record.capture!;
    expect(capture.request).toMatchObject({
      method: 'POST',
      target: '/cap/things?api_key=********&x=1',
      httpVersion: '1.1',
    });
    const requestHeaders = Object.fromEntries(capture.request.headers.map((h) => [h.name, h.value]));
    expect(requestHeaders).toMatchObject({
      Authorization: '********',
      Cookie: '********',
      'X-Trace': 'visible-trace',
      'Content-Type': 'application/json',
    });
    expect(capture.request.body).toMatchObject({
      bytes: Buffer.byteLength(body),
      contentType: 'application/json',
      binary: false,
      truncated: false,
    });
    expect(capture.request.body!.text).toContain('"name": "widget"');
    expect(capture.request.body!.text).not.toContain('hunter2-secret');
    expect(capture.response).toMatchObject({ status: 200 });
    expect(capture.response!.body).toMatchObject({ binary: false, truncated: false });
    expect(capture.response!.body!.bytes).toBe(response.body.length);
    expect(capture.response!.body!.text).toContain('visible-trace');
    const stored = JSON.stringify(record);
    for (const secret of [SECRET, CALLER_TOKEN, 'cookie-value-456', 'query-key-999', 'hunter2-secret']) {
      expect(stored).not.toContain(secret);
    }
  });

  it('cuts bodies at the configured size, marks them truncated, and summarizes binary ones', async () => {
    expect((await setCapture({ monitoringCapture: { enabled: true, maxBodyBytes: 64 } })).status).toBe(200);
    const big = 'a'.repeat(100) + 'é'.repeat(50);
    await send(fixture.gatewayUrl, {
      method: 'POST',
      path: '/cap/big',
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
      body: big,
    });
    const record = await recordOf(fixture, '/cap/big');
    expect(record.capture!.maxBodyBytes).toBe(64);
    expect(record.capture!.request.body).toEqual({
      bytes: Buffer.byteLength(big),
      contentType: 'text/plain; charset=utf-8',
      binary: false,
      truncated: true,
      text: 'a'.repeat(64),
    });
    expect(record.capture!.response!.body!.truncated).toBe(true);
    expect(record.capture!.response!.body!.text!.length).toBeLessThanOrEqual(64);

    const image = await send(fixture.gatewayUrl, { path: '/cap/image?bytes=300' });
    expect(image.status).toBe(200);
    const binary = await recordOf(fixture, '/cap/image');
    expect(binary.capture!.request.body).toBeNull();
    expect(binary.capture!.response!.body).toEqual({
      bytes: 300,
      contentType: 'application/octet-stream',
      binary: true,
      truncated: true,
    });
  });

  it('captures the answers the gateway writes itself, and stops when turned off', async () => {
    const unmatched = await send(fixture.gatewayUrl, { method: 'TRACE', path: '/cap/x' });
    expect(unmatched.status).toBe(405);
    const refused = await recordOf(fixture, '/cap/x');
    expect(refused.capture!.response).toMatchObject({ status: 405 });
    expect(refused.capture!.response!.headers.map((h) => h.name)).toContain('Allow');
    expect(refused.capture!.response!.body!.contentType).toMatch(/^application\/problem\+json/);

    expect((await setCapture({ monitoringCapture: { enabled: false } })).status).toBe(200);
    await send(fixture.gatewayUrl, { path: '/cap/after' });
    expect((await recordOf(fixture, '/cap/after')).capture).toBeUndefined();
  });
});
