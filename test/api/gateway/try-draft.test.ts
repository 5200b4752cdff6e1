import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEchoUpstream, type Upstream } from '../../helpers/upstreams.js';
import { ordersPassthrough, send, startGatewayFixture, type GatewayFixture } from './gateway-fixture.js';

const SECRET = 'draft-secret-5521';
let fixture: GatewayFixture;
let upstream: Upstream;
let shopId: string;

beforeAll(async () => {
  fixture = await startGatewayFixture();
  upstream = await startEchoUpstream();
  await fixture.setVariable('backend', { url: upstream.url, token: SECRET }, { secret: ['token'] });
  const shop = await fixture.addApi({
    basePath: '/shop/v1',
    operations: ['GET /orders/{id}', 'POST /orders'],
  });
  shopId = shop.id;
  await fixture.setPassthrough(shop.id, ordersPassthrough());
  await fixture.allowPublic();
});
afterAll(async () => {
  await fixture.close();
  await upstream.close();
});

/** The saved `GET /orders/{id}` entry with another second section: what the editor holds before Save. */
function draftWith(section2: string) {
  const saved = ordersPassthrough();
  const entry = saved.operations['GET /orders/{id}']!;
  return {
    allOperations: saved.allOperations,
    operations: { 'GET /orders/{id}': { ...entry, target: { ...entry.target, section2 } } },
  };
}

async function tryIt(body: unknown, userName = 'draft-tester') {
  const response = await fixture.server.api(`/api/v1/apis/${shopId}/passthrough/try`, {
    method: 'POST',
    body: JSON.stringify(body),
    roles: ['Operator'],
    userName,
  });
  return { status: response.status, response, json: (await response.json()) as Record<string, unknown> };
}

describe('Try it with an unsaved draft', () => {
  it('runs the draft through the gateway pipeline for that request only, and stores nothing', async () => {
    const revisionBefore = fixture.server.gatehouse.config.store.data.passthroughs[0]!.revision;
    const { status, json } = await tryIt({ method: 'GET', path: '/orders/7', draft: draftWith('drafted') });
    expect(status).toBe(200);
    expect(json).toMatchObject({
      outcome: 'forwarded',
      operation: 'GET /orders/{id}',
      targetUrl: `${upstream.url}/drafted/7?key=********`,
    });
    expect(upstream.requests.at(-1)!.url).toBe(`/drafted/7?key=${SECRET}`);
    // The token header never reaches the target.
    expect(upstream.requests.at(-1)!.headers['x-gatehouse-try-draft']).toBeUndefined();

    // Other callers, and Try it without a draft, keep getting the saved configuration.
    await send(fixture.gatewayUrl, { path: '/shop/v1/orders/7' });
    expect(upstream.requests.at(-1)!.url).toBe(`/orders/7?key=${SECRET}`);
    const saved = await tryIt({ method: 'GET', path: '/orders/8' });
    expect(saved.json.targetUrl).toBe(`${upstream.url}/orders/8?key=********`);
    expect(fixture.server.gatehouse.config.store.data.passthroughs[0]!.revision).toBe(revisionBefore);
  });

  it('never serves a draft to a caller that sends the header itself', async () => {
    await send(fixture.gatewayUrl, {
      path: '/shop/v1/orders/9',
      headers: { 'X-Gatehouse-Try-Draft': 'guessed-token-0000000000000000' },
    });
    const received = upstream.requests.at(-1)!;
    expect(received.url).toBe(`/orders/9?key=${SECRET}`);
    expect(received.headers['x-gatehouse-try-draft']).toBeUndefined();
  });

  it('audits a try with the draft’s operations, not a change', async () => {
    await tryIt({ method: 'GET', path: '/orders/10', draft: draftWith('audited') }, 'draft-auditor');
    const audit = await fixture.server.gatehouse.audit.store.query({
      userName: 'draft-auditor',
      pageNumber: 1,
      pageSize: 10,
    });
    expect(audit.items.map((entry) => entry.actionName)).toEqual(['Passthroughs.Try']);
    expect(JSON.stringify(audit.items[0]!.parameters)).toContain(
      '"draft":{"allOperations":true,"operations":["GET /orders/{id}"]}',
    );
  });

  it('checks the draft like a save: 400 for a bad template, an unknown variable or a bad shape; nothing is sent', async () => {
    const before = upstream.requests.length;
    const broken = await tryIt({ method: 'GET', path: '/orders/1', draft: draftWith('{{#env.backend.url') });
    expect(broken.status).toBe(400);
    expect(broken.response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const unknown = await tryIt({ method: 'GET', path: '/orders/1', draft: draftWith('{{#env.nowhere}}') });
    expect(unknown.status).toBe(400);
    expect(unknown.response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const shape = await tryIt({ method: 'GET', path: '/orders/1', draft: { operations: 'not an object' } });
    expect(shape.status).toBe(400);
    expect(upstream.requests.length).toBe(before);
  });
});

describe('Try it before the Passthrough is created', () => {
  it('tries a draft of an API with no saved configuration, with the policy a create would add; stores neither', async () => {
    const fresh = await fixture.addApi({ basePath: '/fresh/v1', operations: ['GET /things/{id}'] });
    const url = `/api/v1/apis/${fresh.id}/passthrough/try`;
    const post = async (body: unknown) => {
      const response = await fixture.server.api(url, {
        method: 'POST',
        body: JSON.stringify(body),
        roles: ['Operator'],
        userName: 'first-try',
      });
      return { status: response.status, json: (await response.json()) as Record<string, unknown> };
    };

    const saved = await post({ method: 'GET', path: '/things/1' });
    expect(saved.status).toBe(409);
    expect(saved.json.detail).toMatch(
      /no saved Passthrough configuration to try: send its draft, or save it/,
    );

    const draft = {
      allOperations: {
        target: { section1: '{{#env.backend.url}}', section2: 'fresh', section3: '{{#api.OperationPath}}' },
      },
      policy: { grants: [{ type: 'public' }] },
    };
    const tried = await post({ method: 'GET', path: '/things/1', draft });
    expect(tried.status).toBe(200);
    expect(tried.json).toMatchObject({ outcome: 'forwarded', targetUrl: `${upstream.url}/fresh/things/1` });
    expect(upstream.requests.at(-1)!.url).toBe('/fresh/things/1');

    const data = fixture.server.gatehouse.config.store.data;
    expect(data.passthroughs.some((passthrough) => passthrough.apiId === fresh.id)).toBe(false);
    expect(data.policies.some((policy) => policy.name === `${fresh.name} passthrough`)).toBe(false);
    const audit = await fixture.server.gatehouse.audit.store.query({
      userName: 'first-try',
      pageNumber: 1,
      pageSize: 10,
    });
    expect(JSON.stringify(audit.items[0]!.parameters)).toContain(
      '"draft":{"allOperations":true,"operations":[],"policy":["public"]}',
    );

    // The draft's policy is checked like a create's: a bad one is a 400 and nothing is sent.
    const before = upstream.requests.length;
    const badPolicy = await post({
      method: 'GET',
      path: '/things/1',
      draft: { ...draft, policy: { grants: [{ type: 'nonsense' }] } },
    });
    expect(badPolicy.status).toBe(400);
    expect(upstream.requests.length).toBe(before);
  });
});
