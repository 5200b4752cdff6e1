import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EchoedRequest, Upstream } from '../../helpers/upstreams.js';
import { recordsFor, send, startPublicEchoGateway, type GatewayFixture } from './gateway-fixture.js';

let fixture: GatewayFixture;
let upstream: Upstream;

beforeAll(async () => {
  ({ fixture, upstream } = await startPublicEchoGateway({ token: 'tok-9f8e7d' }, { secret: ['token'] }));
});
afterAll(async () => {
  await fixture.close();
  await upstream.close();
});

describe('forwarded headers', () => {
  it('drops hop-by-hop headers, sets X-Forwarded-*, Host and traceparent, and applies header entries in order', async () => {
    const api = await fixture.addApi({ basePath: '/h' });
    await fixture.setPassthrough(api.id, {
      allOperations: {
        target: { section1: '{{#env.backend.url}}', section2: 'in' },
        headers: [
          { action: 'Add', name: 'x-tag', value: 'from-gateway' },
          { action: 'Overwrite', name: 'X-Mode', value: 'strict' },
          { action: 'Remove', name: 'X-Internal' },
          { action: 'Overwrite', name: 'Authorization', value: 'Bearer {{#env.backend.token}}' },
        ],
      },
    });
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const response = await send(fixture.gatewayUrl, {
      path: '/h/x',
      headers: {
        Connection: 'keep-alive, X-Secret-Hop',
        'X-Secret-Hop': 'must not pass',
        'Keep-Alive': 'timeout=5',
        TE: 'trailers',
        'Proxy-Authorization': 'Basic cHJveHk6cHc=',
        'X-Tag': 'from-client',
        'X-Mode': 'lax',
        'X-Internal': 'drop me',
        'X-Forwarded-For': '203.0.113.7',
        'X-Forwarded-Proto': 'https',
        'X-Forwarded-Host': 'spoofed.example',
        Authorization: 'Basic client',
        traceparent,
      },
    });
    expect(response.status).toBe(200);
    const seen = response.json() as EchoedRequest;
    expect(seen.headers['x-secret-hop']).toBeUndefined();
    expect(seen.headers['keep-alive']).toBeUndefined();
    expect(seen.headers.te).toBeUndefined();
    expect(seen.headers['proxy-authorization']).toBeUndefined();
    expect(seen.headers['x-internal']).toBeUndefined();
    expect(seen.headers['x-tag']).toEqual(['from-client', 'from-gateway']);
    expect(seen.headers['x-mode']).toBe('strict');
    expect(seen.headers.authorization).toBe('Bearer tok-9f8e7d');
    expect(seen.headers['x-forwarded-for']).toBe('203.0.113.7, 127.0.0.1');
    expect(seen.headers['x-forwarded-proto']).toBe('http');
    expect(seen.headers['x-forwarded-host']).toBe(new URL(fixture.gatewayUrl).host);
    expect(seen.headers.host).toBe(new URL(upstream.url).host);
    expect(seen.headers.traceparent).toBe(traceparent);
    // Without one, the gateway starts a trace.
    const fresh = (await send(fixture.gatewayUrl, { path: '/h/y' })).json() as EchoedRequest;
    expect(fresh.headers.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
  });

  it('keeps secrets out of monitoring: the target URL is masked', async () => {
    const api = await fixture.addApi({ basePath: '/masked' });
    await fixture.setPassthrough(api.id, {
      allOperations: {
        target: { section1: '{{#env.backend.url}}', section2: 'x', section4: 'token={{#env.backend.token}}' },
      },
    });
    const seen = (await send(fixture.gatewayUrl, { path: '/masked/a' })).json() as EchoedRequest;
    expect(seen.query).toBe('token=tok-9f8e7d');
    const [record] = await recordsFor(fixture, '/masked/a');
    expect(record!.targetUrl).toBe(`${upstream.url}/x?token=********`);
    expect(JSON.stringify(fixture.monitoring)).not.toContain('tok-9f8e7d');
  });
});

describe('refusals', () => {
  it('refuses request data with CR/LF in a header value, or that would change the target, with 400', async () => {
    const api = await fixture.addApi({ basePath: '/refuse' });
    await fixture.setPassthrough(api.id, {
      allOperations: {
        target: {
          section1: '{{#env.backend.url}}',
          section2: '{{#api.QueryParameters.p}}',
          section3: '{{#api.OperationPath}}',
        },
        headers: [{ action: 'Add', name: 'X-Echo', value: '{{#api.QueryParameters.h}}' }],
      },
    });
    const crlf = await send(fixture.gatewayUrl, { path: '/refuse/a?h=ok%0D%0AX-Injected:%201' });
    expect(crlf.status).toBe(400);
    expect(crlf.headers['content-type']).toContain('application/problem+json');
    const dots = await send(fixture.gatewayUrl, { path: '/refuse/a?p=..' });
    expect(dots.status).toBe(400);
    const before = upstream.requests.length;
    // A value with separators or dot segments once decoded would leave the base path at a target that decodes
    // %2F or %5C: refused, not encoded.
    for (const value of ['%2F%2Fevil.example%2Fx', '..%2Fadmin%2Fsecret.txt', '..%5Cadmin', '%252e%252e']) {
      const refused = await send(fixture.gatewayUrl, { path: `/refuse/a?p=${value}` });
      expect(refused.status, value).toBe(400);
      expect((refused.json() as { code: string }).code, value).toBe('GH_ERR_UNFORWARDABLE_REQUEST');
      expect((refused.json() as { detail: string }).detail).toMatch(
        /request value contains|'\.' or '\.\.' segment/,
      );
    }
    expect(upstream.requests.length).toBe(before);
    const ok = await send(fixture.gatewayUrl, { path: '/refuse/a?p=x%3Fy%20z&h=fine' });
    expect(ok.status).toBe(200);
    expect(ok.json() as EchoedRequest).toMatchObject({ path: '/x%3Fy%20z/a', headers: { 'x-echo': 'fine' } });
    expect(upstream.requests.length).toBe(before + 1);
    const records = await recordsFor(fixture, '/refuse/a', 7);
    expect(records.slice(0, 6).map((record) => [record.status, record.outcome])).toEqual(
      Array.from({ length: 6 }, () => [400, 'refused']),
    );
  });

  it('answers 503 naming the reference when an env value is missing or its variable deleted, never a value', async () => {
    await fixture.setVariable('later', { url: upstream.url, other: 'keep-this-hidden' });
    const api = await fixture.addApi({ basePath: '/later' });
    await fixture.setPassthrough(api.id, {
      allOperations: { target: { section1: '{{#env.later.url}}', section2: 'x' } },
    });
    expect((await send(fixture.gatewayUrl, { path: '/later/1' })).status).toBe(200);

    // The value is removed from the environment after the passthrough was deployed.
    await fixture.update((data) => {
      const variable = data.environmentVariables.find((candidate) => candidate.name === 'later')!;
      variable.values = { development: { other: { plain: 'keep-this-hidden' } } };
    });
    const missing = await send(fixture.gatewayUrl, { path: '/later/2' });
    expect(missing.status).toBe(503);
    expect((missing.json() as { detail: string }).detail).toContain('#env.later.url');
    expect(missing.text).not.toContain('keep-this-hidden');

    // The variable itself is deleted.
    await fixture.update((data) => {
      data.environmentVariables = data.environmentVariables.filter((candidate) => candidate.name !== 'later');
    });
    const deleted = await send(fixture.gatewayUrl, { path: '/later/3' });
    expect(deleted.status).toBe(503);
    expect((deleted.json() as { detail: string }).detail).toContain('#env.later');
    const records = await recordsFor(fixture, '/later/', 3);
    expect(records.slice(1).map((record) => record.outcome)).toEqual([
      'configuration-error',
      'configuration-error',
    ]);
  });
});
