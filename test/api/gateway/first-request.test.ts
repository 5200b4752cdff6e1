import { afterEach, describe, expect, it } from 'vitest';
import { closedPort, startEchoUpstream, type EchoedRequest, type Upstream } from '../../helpers/upstreams.js';
import { recordsFor, send, startGatewayFixture, type GatewayFixture } from './gateway-fixture.js';

// The gateway loads its HTTP client (undici) on the first forwarded request, not at start: these are the requests
// that wait for that load. Each test starts its own server, so its first requests are the gateway's first.
let fixture: GatewayFixture | undefined;
let upstream: Upstream | undefined;

afterEach(async () => {
  await fixture?.close();
  await upstream?.close();
  fixture = undefined;
  upstream = undefined;
});

async function freshGateway(): Promise<{ fixture: GatewayFixture; upstream: Upstream }> {
  fixture = await startGatewayFixture();
  upstream = await startEchoUpstream();
  await fixture.allowPublic();
  await fixture.routeAll('/first', upstream.url);
  return { fixture, upstream };
}

describe('the first forwarded requests after a start', () => {
  it('all reach the target and answer, bodies included, when they arrive together', async () => {
    const { fixture, upstream } = await freshGateway();
    const body = Buffer.alloc(300_000, 'b');
    const answers = await Promise.all([
      ...Array.from({ length: 6 }, (_, i) => send(fixture.gatewayUrl, { path: `/first/get/${i}?n=${i}` })),
      send(fixture.gatewayUrl, { method: 'POST', path: '/first/post', body }),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200, 200]);
    const echoed = answers.map((answer) => answer.json() as EchoedRequest);
    expect(echoed.slice(0, 6).map((seen) => seen.url)).toEqual(
      Array.from({ length: 6 }, (_, i) => `/get/${i}?n=${i}`),
    );
    expect(echoed[6]).toMatchObject({ method: 'POST', path: '/post', bodyBytes: 300_000 });
    expect(upstream.requests).toHaveLength(7);
    const records = await recordsFor(fixture, '/first/', 7);
    expect(records.every((record) => record.outcome === 'forwarded' && record.status === 200)).toBe(true);
  });

  it('answers 502 for an unreachable target as later requests do', async () => {
    const { fixture } = await freshGateway();
    await fixture.routeAll('/nowhere', `http://127.0.0.1:${await closedPort()}`);
    const answer = await send(fixture.gatewayUrl, { path: '/nowhere/x' });
    expect(answer.status).toBe(502);
    expect(answer.headers['content-type']).toContain('application/problem+json');
  });
});
