import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../src-server/core/audit/audit-entry.js';
import { closedPort, type EchoedRequest, type Upstream } from '../../helpers/upstreams.js';
import { send, startPublicEchoGateway, type GatewayFixture } from './gateway-fixture.js';

let fixture: GatewayFixture;
let upstream: Upstream;

beforeAll(async () => {
  ({ fixture, upstream } = await startPublicEchoGateway(
    { secretPart: 'never-in-events' },
    { secret: ['secretPart'] },
  ));
});
afterAll(async () => {
  await fixture.close();
  await upstream.close();
});

async function agentEvents(actionName: string): Promise<AuditEntry[]> {
  const page = await fixture.server.gatehouse.audit.store.query({ actionName, pageNumber: 1, pageSize: 200 });
  return page.items;
}

function addGroup(port: number, platform: 'cross-platform' | 'legacy' = 'cross-platform') {
  const id = randomUUID();
  return fixture
    .update((data) => {
      data.agentGroups.push({
        id,
        name: `Group ${id.slice(0, 4)}`,
        environmentId: 'development',
        platform,
        host: '127.0.0.1',
        port,
        createdAt: '',
        updatedAt: '',
      });
    })
    .then(() => id);
}

describe('live configuration', () => {
  it('applies changes without a restart, and requests in flight keep the table they started with', async () => {
    const api = await fixture.addApi({ basePath: '/live' });
    await fixture.setPassthrough(api.id, {
      allOperations: {
        target: { section1: '{{#env.backend.url}}', section2: 'v1', section4: '{{#api.QueryParameters}}' },
      },
    });
    const inFlight = send(fixture.gatewayUrl, { path: '/live/x?delay=600' });
    await new Promise((resolve) => setTimeout(resolve, 150));
    await fixture.setPassthrough(api.id, {
      allOperations: {
        target: { section1: '{{#env.backend.url}}', section2: 'v2', section4: '{{#api.QueryParameters}}' },
      },
    });
    const after = await send(fixture.gatewayUrl, { path: '/live/y' });
    expect((after.json() as EchoedRequest).path).toBe('/v2');
    const before = await inFlight;
    expect(before.status).toBe(200);
    expect((before.json() as EchoedRequest).path).toBe('/v1');
  });

  it('keeps keep-alive connections across changes: no dropped connection', async () => {
    const api = await fixture.addApi({ basePath: '/keep' });
    await fixture.setPassthrough(api.id, {
      allOperations: { target: { section1: upstream.url, section2: 'a' } },
    });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const url = new URL(fixture.gatewayUrl);
    const get = () =>
      new Promise<{ status: number; port: number | undefined }>((resolve, reject) => {
        const req = request({ host: url.hostname, port: url.port, path: '/keep/x', agent }, (res) => {
          const port = res.socket.localPort;
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, port }));
        });
        req.on('error', reject);
        req.end();
      });
    const first = await get();
    await fixture.setPassthrough(api.id, {
      allOperations: { target: { section1: upstream.url, section2: 'b' } },
    });
    const second = await get();
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(first.port).toBeGreaterThan(0);
    expect(second.port).toBe(first.port);
    agent.destroy();
  });

  it('updates the runtime incrementally: a write rebuilds only the routes of what it changed', async () => {
    const one = await fixture.addApi({ basePath: '/inc-one', operations: ['GET /a/{id}'] });
    const two = await fixture.addApi({ basePath: '/inc-two' });
    await fixture.setPassthrough(one.id, {
      operations: { 'GET /a/{id}': { target: { section1: upstream.url, section2: 'one' } } },
    });
    await fixture.setPassthrough(two.id, { allOperations: { target: { section1: upstream.url } } });
    const routeOf = (basePath: string) =>
      fixture.server.gatehouse.gateway.runtimeOf('default')!.apis.find((api) => api.basePath === basePath)!;
    const [oneBefore, twoBefore] = [routeOf('/inc-one'), routeOf('/inc-two')];
    const runtimeBefore = fixture.server.gatehouse.gateway.runtimeOf('default');

    // An unrelated write (a new environment) leaves the group's runtime as it is.
    const created = await fixture.server.api('/api/v1/environments', {
      method: 'POST',
      body: JSON.stringify({ name: `Unrelated ${randomUUID().slice(0, 6)}` }),
    });
    expect(created.status).toBe(201);
    await fixture.server.gatehouse.gateway.settled();
    expect(fixture.server.gatehouse.gateway.runtimeOf('default')).toBe(runtimeBefore);

    // A passthrough change rebuilds that API's route only; the other is reused as it is.
    await fixture.setPassthrough(two.id, {
      allOperations: { target: { section1: upstream.url, section2: 'x' } },
    });
    expect(routeOf('/inc-one')).toBe(oneBefore);
    expect(routeOf('/inc-two')).not.toBe(twoBefore);
    const forwarded = await send(fixture.gatewayUrl, { path: '/inc-two/y' });
    expect((forwarded.json() as EchoedRequest).path).toBe('/x');
  });

  it('records configuration events per group: APIs, operations and revision, never a value', async () => {
    const events = await agentEvents('Agent.ConfigurationApplied');
    expect(events.length).toBeGreaterThan(0);
    const latest = events[0]!;
    expect(latest).toMatchObject({ userName: 'system', agentGroup: { id: 'default', name: 'Default' } });
    const parameters = latest.parameters as {
      revision: number;
      apis: { basePath: string; operations: string[] }[];
      operations: number;
    };
    expect(parameters.revision).toBeGreaterThan(0);
    expect(parameters.apis.map((entry) => entry.basePath)).toContain('/keep');
    expect(JSON.stringify(events)).not.toContain('never-in-events');
    expect(JSON.stringify(events)).not.toContain(upstream.url);
  });

  it('starts, moves and stops listeners as cross-platform groups come, change and go', async () => {
    const port = await closedPort();
    const id = await addGroup(port);
    const endpoint = () =>
      fixture.server.gatehouse.gatewayEndpoints().find((candidate) => candidate.agentGroupId === id);
    expect(endpoint()?.url).toBe(`http://127.0.0.1:${port}`);
    expect(fixture.server.gatehouse.gatewayEndpoints()[0]!.agentGroupId).toBe('default');
    const api = await fixture.addApi({ basePath: '/grouped', agentGroupIds: [id] });
    await fixture.setPassthrough(api.id, {
      allOperations: { target: { section1: upstream.url, section2: 'g' } },
    });
    // Each group has its own policies: none yet on the new group.
    expect((await send(endpoint()!.url, { path: '/grouped/x' })).status).toBe(401);
    await fixture.addPolicy({ agentGroupId: id, grants: [{ type: 'public' }] });
    expect(((await send(endpoint()!.url, { path: '/grouped/x' })).json() as EchoedRequest).path).toBe('/g');
    // The default group does not serve it.
    expect((await send(fixture.gatewayUrl, { path: '/grouped/x' })).status).toBe(404);

    const newPort = await closedPort();
    await fixture.update((data) => void (data.agentGroups.find((group) => group.id === id)!.port = newPort));
    expect(endpoint()?.url).toBe(`http://127.0.0.1:${newPort}`);
    expect((await send(endpoint()!.url, { path: '/grouped/x' })).status).toBe(200);
    await expect(send(`http://127.0.0.1:${port}`, { path: '/grouped/x' })).rejects.toThrow();

    await fixture.update(
      (data) => void (data.agentGroups = data.agentGroups.filter((group) => group.id !== id)),
    );
    expect(endpoint()).toBeUndefined();
    await expect(send(`http://127.0.0.1:${newPort}`, { path: '/grouped/x' })).rejects.toThrow();

    const started = (await agentEvents('Agent.Started')).filter((event) => event.agentGroup?.id === id);
    const stopped = (await agentEvents('Agent.Stopped')).filter((event) => event.agentGroup?.id === id);
    expect(started.map((event) => (event.parameters as { url: string }).url).sort()).toEqual(
      [`http://127.0.0.1:${port}`, `http://127.0.0.1:${newPort}`].sort(),
    );
    expect(stopped).toHaveLength(2);
  });

  it('binds the default group to Gateway:Port at start, and moves it when its stored address changes', async () => {
    const started = fixture.server.gatehouse.gatewayEndpoints()[0]!;
    expect(started.agentGroupId).toBe('default');
    // The store still says 8080; the test server started it on the --gateway-port it was given (0: a free one).
    expect(new URL(started.url).port).not.toBe('8080');
    const port = await closedPort();
    await fixture.update(
      (data) => void (data.agentGroups.find((group) => group.id === 'default')!.port = port),
    );
    expect(fixture.server.gatehouse.gatewayEndpoints()[0]!.url).toBe(`http://127.0.0.1:${port}`);
    expect((await send(fixture.gatewayUrl, { path: '/keep/x' })).status).toBe(200);
    await expect(send(started.url, { path: '/keep/x' })).rejects.toThrow();
  });

  it('runs nothing for legacy agent groups', async () => {
    const port = await closedPort();
    const id = await addGroup(port, 'legacy');
    expect(fixture.server.gatehouse.gatewayEndpoints().some((endpoint) => endpoint.agentGroupId === id)).toBe(
      false,
    );
    await expect(send(`http://127.0.0.1:${port}`, { path: '/' })).rejects.toThrow();
  });
});
