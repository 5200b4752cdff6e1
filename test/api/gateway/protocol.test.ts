import { createServer, request, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRawUpstream, type EchoedRequest, type Upstream } from '../../helpers/upstreams.js';
import { recordsFor, send, sendRaw, startPublicEchoGateway, type GatewayFixture } from './gateway-fixture.js';

let fixture: GatewayFixture;
let upstream: Upstream;
let host: string;

beforeAll(async () => {
  ({ fixture, upstream } = await startPublicEchoGateway());
  host = new URL(fixture.gatewayUrl).host;
});
afterAll(async () => {
  await fixture.close();
  await upstream.close();
});

/** `All operations` of `basePath` to `target`/v2 with the operation path and query passed on. */
async function route(basePath: string, target: string, extra: Record<string, unknown> = {}) {
  const api = await fixture.addApi({ basePath, operations: ['TRACE /t'] });
  const entry = {
    target: {
      section1: target,
      section2: 'v2',
      section3: '{{#api.OperationPath}}',
      section4: '{{#api.QueryParameters}}',
    },
    ...extra,
  };
  await fixture.setPassthrough(api.id, { allOperations: entry, operations: { 'TRACE /t': entry } });
}

const statusOf = (response: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1] ?? 0);

describe('messages through the gateway', () => {
  it('keeps the slash after the base path: /base/ goes to /v2/', async () => {
    await route('/slash', upstream.url);
    expect(((await send(fixture.gatewayUrl, { path: '/slash/' })).json() as EchoedRequest).path).toBe('/v2/');
    expect(((await send(fixture.gatewayUrl, { path: '/slash' })).json() as EchoedRequest).path).toBe('/v2');
  });

  it('adds Via both ways, and appends its element to a Forwarded the client sent', async () => {
    await route('/via', upstream.url);
    const response = await send(fixture.gatewayUrl, {
      path: '/via/x',
      headers: { via: '1.1 corp-proxy', forwarded: 'for=192.0.2.60;proto=https' },
    });
    const seen = response.json() as EchoedRequest;
    expect(seen.headers.via).toBe('1.1 corp-proxy, 1.1 gatehouse');
    expect(seen.headers.forwarded).toBe(
      `for=192.0.2.60;proto=https, for=127.0.0.1;host="${host}";proto=http`,
    );
    expect(response.headers.via).toBe('1.1 gatehouse');
    const plain = await send(fixture.gatewayUrl, { path: '/via/y' });
    expect((plain.json() as EchoedRequest).headers.forwarded).toBeUndefined();
  });

  it('answers OPTIONS and TRACE with Max-Forwards: 0 itself, and counts it down otherwise', async () => {
    await route('/hops', upstream.url);
    const before = upstream.requests.length;
    const options = await send(fixture.gatewayUrl, {
      method: 'OPTIONS',
      path: '/hops/a',
      headers: { 'max-forwards': '0' },
    });
    expect(options.status).toBe(200);
    expect(options.headers.allow).toContain('GET');
    const trace = await send(fixture.gatewayUrl, {
      method: 'TRACE',
      path: '/hops/t',
      headers: { 'max-forwards': '0', authorization: 'Bearer never-reflected', 'x-note': 'kept' },
    });
    expect(trace.status).toBe(200);
    expect(trace.headers['content-type']).toBe('message/http');
    expect(trace.text).toMatch(/^TRACE \/hops\/t HTTP\/1\.1\r\n/);
    expect(trace.text).toContain('x-note: kept');
    expect(trace.text).not.toContain('never-reflected');
    expect(upstream.requests.length).toBe(before);
    const forwarded = await send(fixture.gatewayUrl, {
      method: 'OPTIONS',
      path: '/hops/b',
      headers: { 'max-forwards': '2' },
    });
    expect((forwarded.json() as EchoedRequest).headers['max-forwards']).toBe('1');
    const records = await recordsFor(fixture, '/hops/', 3);
    expect(records.slice(0, 2).map((record) => [record.status, record.outcome])).toEqual([
      [200, 'preflight'],
      [200, 'preflight'],
    ]);
  });

  it('relays 103 Early Hints and then the response', async () => {
    const target = await startRawUpstream((_head, socket) => {
      socket.write('HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload; as=style\r\n\r\n');
      setTimeout(() => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\ndone'), 50);
    });
    try {
      await route('/hints', target.url);
      const url = new URL(fixture.gatewayUrl);
      const informational: { status: number; headers: IncomingHttpHeaders }[] = [];
      const body = await new Promise<string>((resolve, reject) => {
        const req = request({ host: url.hostname, port: url.port, path: '/hints/page' }, (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve(`${res.statusCode} ${text}`));
        });
        req.on('information', (info) =>
          informational.push({ status: info.statusCode, headers: info.headers }),
        );
        req.on('error', reject);
        req.end();
      });
      expect(body).toBe('200 done');
      expect(informational).toHaveLength(1);
      expect(informational[0]).toMatchObject({
        status: 103,
        headers: { link: '</style.css>; rel=preload; as=style' },
      });
    } finally {
      await target.close();
    }
  });

  it('delivers a complete response followed by stray bytes, drops the excess and the connection', async () => {
    const target = await startRawUpstream((head, socket) => {
      if (head.includes('/v2/no-content'))
        socket.write('HTTP/1.1 204 No Content\r\nX-Kind: empty\r\n\r\nhello, a body on a 204');
      else socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokTRAILING GARBAGE');
    });
    try {
      await route('/stray', target.url);
      const empty = await send(fixture.gatewayUrl, { path: '/stray/no-content' });
      expect(empty.status).toBe(204);
      expect(empty.headers['x-kind']).toBe('empty');
      expect(empty.body.length).toBe(0);
      const long = await send(fixture.gatewayUrl, { path: '/stray/long' });
      expect([long.status, long.text]).toEqual([200, 'ok']);
      const again = await send(fixture.gatewayUrl, { path: '/stray/again' });
      expect([again.status, again.text]).toEqual([200, 'ok']);
      // Every connection that carried stray bytes was dropped: each request came on a new one.
      expect(target.connections).toBe(3);
    } finally {
      await target.close();
    }
  });

  it('relays a declared-length body that arrives in parts, without the hop-by-hop headers the target named', async () => {
    const target = await startRawUpstream((_head, socket) => {
      socket.write(
        'HTTP/1.1 200 OK\r\nContent-Length: 10\r\nConnection: keep-alive, X-Target-Hop\r\n' +
          'X-Target-Hop: between the target and the gateway\r\nX-Kept: yes\r\n\r\nfirst',
      );
      setTimeout(() => socket.write('-half'), 50);
    });
    try {
      await route('/parts', target.url);
      for (const path of ['/parts/one', '/parts/two']) {
        const response = await send(fixture.gatewayUrl, { path });
        expect([response.status, response.text]).toEqual([200, 'first-half']);
        expect(response.headers['content-length']).toBe('10');
        expect(response.headers['x-kept']).toBe('yes');
        expect(response.headers['x-target-hop']).toBeUndefined();
      }
      // Both complete: the second request reused the target connection of the first.
      expect(target.connections).toBe(1);
      const records = await recordsFor(fixture, '/parts/', 2);
      expect(records.map((record) => [record.status, record.bytesOut, record.outcome])).toEqual([
        [200, 10, 'forwarded'],
        [200, 10, 'forwarded'],
      ]);
    } finally {
      await target.close();
    }
  });

  it('relays a HEAD answer that declares a length and has no body', async () => {
    const target = await startRawUpstream((_head, socket) => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 1234\r\nX-Kind: head\r\n\r\n');
    });
    try {
      await route('/head-length', target.url);
      for (const path of ['/head-length/a', '/head-length/b']) {
        const response = await send(fixture.gatewayUrl, { method: 'HEAD', path });
        expect([response.status, response.headers['content-length'], response.body.length]).toEqual([
          200,
          '1234',
          0,
        ]);
        expect(response.headers['x-kind']).toBe('head');
      }
    } finally {
      await target.close();
    }
  });

  it('streams server-sent events as they come, and a quiet stream outlives the response timeout', async () => {
    const events = await startEventSource();
    try {
      await route('/events', events.url, { timeouts: { connectMs: 1_000, responseMs: 300 } });
      const url = new URL(fixture.gatewayUrl);
      const arrivals: string[] = [];
      await new Promise<void>((resolve, reject) => {
        const req = request({ host: url.hostname, port: url.port, path: '/events/stream' }, (res) => {
          expect(res.headers['content-type']).toBe('text/event-stream');
          // The target writes each event only once the one before reached this client: an event held back by
          // the gateway leaves the stream waiting, and the test fails by its timeout. 700 ms of quiet between
          // them (past the 300 ms response timeout) must not cut the stream.
          res.on('data', (chunk: Buffer) => {
            arrivals.push(chunk.toString());
            setTimeout(() => events.sendNext(), 700);
          });
          res.on('end', resolve);
        });
        req.on('error', reject);
        req.end();
      });
      expect(arrivals.join('')).toBe('data: one\n\ndata: two\n\ndata: three\n\n');
      const [record] = await recordsFor(fixture, '/events/stream');
      expect(record).toMatchObject({ status: 200, outcome: 'forwarded' });
    } finally {
      await events.close();
    }
  });

  it('masks credential-like query values in the monitoring record', async () => {
    await route('/masked', upstream.url);
    await send(fixture.gatewayUrl, {
      path: '/masked/a?access_token=abc123&sig=s1g&session=sess-77&JSESSIONID=js-78&page=2',
    });
    const [record] = await recordsFor(fixture, '/masked/a');
    expect(record!.targetUrl).toContain('page=2');
    expect(record!.targetUrl).toContain('access_token=********');
    expect(record!.targetUrl).toContain('sig=********');
    expect(record!.targetUrl).toContain('session=********');
    expect(JSON.stringify(record)).not.toMatch(/abc123|s1g|sess-77|js-78/);
  });
});

describe('refusals as problem+json', () => {
  it('answers an unknown expectation with 417, and a missing Host with 400', async () => {
    await route('/expect', upstream.url);
    const expectation = await sendRaw(
      fixture.gatewayUrl,
      `GET /expect/a HTTP/1.1\r\nHost: ${host}\r\nExpect: something-else\r\nConnection: close\r\n\r\n`,
    );
    expect(statusOf(expectation)).toBe(417);
    expect(expectation).toMatch(/content-type: application\/problem\+json/i);
    expect(expectation).toContain('"status":417');
    expect(expectation).toContain('"code":"GH_ERR_EXPECTATION_FAILED"');
    const noHost = await sendRaw(fixture.gatewayUrl, 'GET /expect/a HTTP/1.1\r\nConnection: close\r\n\r\n');
    expect(statusOf(noHost)).toBe(400);
    expect(noHost).toMatch(/content-type: application\/problem\+json/i);
    expect(noHost).toContain('Host header');
    expect(noHost).toContain('"code":"GH_ERR_BAD_HOST"');
    // HTTP/1.0 may omit Host.
    const old = await sendRaw(fixture.gatewayUrl, 'GET /expect/a HTTP/1.0\r\n\r\n');
    expect(old).toMatch(/^HTTP\/1\.1 200/);
    const huge = await sendRaw(
      fixture.gatewayUrl,
      `GET /expect/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: ${host}\r\n\r\n`,
    );
    expect(statusOf(huge)).toBe(431);
    expect(huge).toContain('"status":431');
    expect(huge).toContain('"code":"GH_ERR_HEADERS_TOO_LARGE"');
  });

  it('sends 100 Continue only once the request is on its way; a refused one never asks for the body', async () => {
    await route('/continue', upstream.url);
    const accepted = await sendRaw(
      fixture.gatewayUrl,
      `POST /continue/a HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 5\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
      300,
      (response, socket) => {
        if (response.startsWith('HTTP/1.1 100 Continue')) socket.write('hello');
      },
    );
    expect(accepted).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 OK/);
    expect(accepted).toContain('"bodyBytes":5');
    const refused = await sendRaw(
      fixture.gatewayUrl,
      `POST /nowhere/a HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n`,
    );
    expect(statusOf(refused)).toBe(404);
    expect(refused).not.toContain('100 Continue');
  });
});

/** An event stream: three events, 700 ms apart, then the end. */
/** A target of server-sent events: `one` at once, then each next event (then the end) when the test says. */
async function startEventSource(): Promise<{
  url: string;
  sendNext: () => void;
  close: () => Promise<void>;
}> {
  const events = ['one', 'two', 'three'];
  let stream: ServerResponse | undefined;
  const sendNext = () => {
    const event = events.shift();
    if (event === undefined) stream?.end();
    else stream?.write(`data: ${event}\n\n`);
  };
  const server: Server = createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store' });
    stream = res;
    sendNext();
    req.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sendNext,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
