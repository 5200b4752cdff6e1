import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEchoUpstream, type EchoedRequest, type Upstream } from '../../helpers/upstreams.js';
import { recordsFor, sendRaw, startGatewayFixture, type GatewayFixture } from './gateway-fixture.js';

let fixture: GatewayFixture;
let upstream: Upstream;
let host: string;

beforeAll(async () => {
  fixture = await startGatewayFixture();
  upstream = await startEchoUpstream();
  await fixture.allowPublic();
  const api = await fixture.addApi({ basePath: '/raw' });
  await fixture.setPassthrough(api.id, {
    allOperations: {
      target: {
        section1: upstream.url,
        section2: 'target',
        section3: '{{#api.OperationPath}}',
        section4: '{{#api.QueryParameters}}',
      },
    },
  });
  host = new URL(fixture.gatewayUrl).host;
});
afterAll(async () => {
  await fixture.close();
  await upstream.close();
});

const statusOf = (response: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1] ?? 0);
const statuses = (response: string) =>
  [...response.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((match) => Number(match[1]));

function bodyOf(response: string): string {
  const start = response.indexOf('\r\n\r\n') + 4;
  const head = response.slice(0, start);
  if (!/transfer-encoding: chunked/i.test(head)) return response.slice(start);
  let rest = response.slice(start);
  let body = '';
  for (;;) {
    const lineEnd = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, lineEnd), 16);
    if (!size) return body;
    body += rest.slice(lineEnd + 2, lineEnd + 2 + size);
    rest = rest.slice(lineEnd + 4 + size);
  }
}

describe('requests a normal client would not send', () => {
  it('refuses Content-Length together with Transfer-Encoding, and conflicting lengths', async () => {
    const before = upstream.arrivals.length;
    const both = await sendRaw(
      fixture.gatewayUrl,
      `POST /raw/a HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /raw/smuggled HTTP/1.1\r\nHost: ${host}\r\n\r\n`,
    );
    expect(statuses(both)).toEqual([400]);
    const twoLengths = await sendRaw(
      fixture.gatewayUrl,
      `POST /raw/a HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 4\r\nContent-Length: 40\r\n\r\nabcd`,
    );
    expect(statusOf(twoLengths)).toBe(400);
    const obfuscated = await sendRaw(
      fixture.gatewayUrl,
      `POST /raw/a HTTP/1.1\r\nHost: ${host}\r\nTransfer-Encoding: chunked, identity\r\n\r\n0\r\n\r\n`,
    );
    expect(statusOf(obfuscated)).toBe(400);
    expect(both).toContain('application/problem+json');
    expect(upstream.arrivals.length).toBe(before);
    const refused = fixture.monitoring.filter(
      (record) => record.path === '-' && record.outcome === 'refused',
    );
    expect(refused.length).toBeGreaterThanOrEqual(3);
  });

  it('forwards chunked bodies of DELETE, OPTIONS and GET with their own framing, so nothing rides into the next request', async () => {
    const smuggled = 'GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n';
    for (const method of ['DELETE', 'OPTIONS', 'GET']) {
      const before = upstream.arrivals.length;
      const response = await sendRaw(
        fixture.gatewayUrl,
        `${method} /raw/${method} HTTP/1.1\r\nHost: ${host}\r\nTransfer-Encoding: chunked\r\n\r\n` +
          `${smuggled.length.toString(16)}\r\n${smuggled}\r\n0\r\n\r\n`,
      );
      expect(statusOf(response), method).toBe(200);
      const seen = JSON.parse(bodyOf(response)) as EchoedRequest;
      expect(seen).toMatchObject({ method, path: `/target/${method}`, bodyBytes: smuggled.length });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(upstream.arrivals.slice(before)).toEqual([`/target/${method}`]);
    }
  });

  it('refuses a bad or doubled Host header', async () => {
    expect(
      statusOf(await sendRaw(fixture.gatewayUrl, `GET /raw/a HTTP/1.1\r\nHost: evil.example/path\r\n\r\n`)),
    ).toBe(400);
    expect(
      statusOf(
        await sendRaw(
          fixture.gatewayUrl,
          `GET /raw/a HTTP/1.1\r\nHost: ${host}\r\nHost: evil.example\r\n\r\n`,
        ),
      ),
    ).toBe(400);
    expect(statusOf(await sendRaw(fixture.gatewayUrl, `GET /raw/a HTTP/1.1\r\n\r\n`))).toBe(400);
  });

  it('treats an absolute-form target as its path: the authority never picks the target', async () => {
    const response = await sendRaw(
      fixture.gatewayUrl,
      `GET http://evil.example/raw/abs?x=1 HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
    );
    expect(statusOf(response)).toBe(200);
    const seen = JSON.parse(bodyOf(response)) as EchoedRequest;
    expect(seen.url).toBe('/target/abs?x=1');
    expect(seen.headers.host).toBe(new URL(upstream.url).host);
  });

  it('refuses dot segments in every spelling, before routing or policies see them', async () => {
    for (const path of [
      '/raw/../admin',
      '/raw/%2e%2e/admin',
      '/raw/.%2E/x',
      '/raw/./x',
      '/raw/a%2Fb',
      '/raw/a\\..\\b',
    ]) {
      const response = await sendRaw(
        fixture.gatewayUrl,
        `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
      );
      expect(statusOf(response), path).toBe(400);
    }
    const records = await recordsFor(fixture, '/raw/', 0);
    expect(
      records.filter((record) => record.outcome === 'refused' && record.status === 400).length,
    ).toBeGreaterThanOrEqual(6);
  });

  it('answers 431 to oversized headers and 400 to garbage', async () => {
    const huge = await sendRaw(
      fixture.gatewayUrl,
      `GET /raw/a HTTP/1.1\r\nHost: ${host}\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(statusOf(huge)).toBe(431);
    expect(huge).toContain('"status":431');
    expect(statusOf(await sendRaw(fixture.gatewayUrl, 'NOT HTTP AT ALL\r\n\r\n'))).toBe(400);
    expect(
      statusOf(
        await sendRaw(
          fixture.gatewayUrl,
          `GET /raw/a HTTP/1.1\r\nHost: ${host}\r\nX-Folded: a\r\n b\r\n\r\n`,
        ),
      ),
    ).toBe(400);
  });

  it('answers CONNECT with 501 problem+json and forwards nothing, instead of dropping the connection', async () => {
    const before = upstream.requests.length;
    const answer = await sendRaw(
      fixture.gatewayUrl,
      `CONNECT ${new URL(upstream.url).host} HTTP/1.1\r\nHost: ${new URL(upstream.url).host}\r\n\r\n`,
    );
    expect(statusOf(answer)).toBe(501);
    expect(answer).toMatch(/content-type: application\/problem\+json/i);
    expect(JSON.parse(bodyOf(answer))).toMatchObject({
      status: 501,
      code: 'GH_ERR_CONNECT_NOT_SUPPORTED',
      detail: 'The gateway does not open tunnels (CONNECT).',
    });
    expect(upstream.requests.length).toBe(before);
  });
});
