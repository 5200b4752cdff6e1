import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type {
  ApiImportResult,
  AuditLogPage,
  InstanceList,
  ListPage,
  MonitoringRecord,
} from '../../../src-server/core/contracts/index.js';
import { eventually, freshRequest, signedInClient } from '../../helpers/serve-client.js';
import { startTcpProxy, type TcpProxy } from '../../helpers/tcp-proxy.js';
import { startTeam, type Team } from '../../helpers/team-instances.js';
import { startEchoUpstream, type Upstream } from '../../helpers/upstreams.js';

let team: Team;
let upstream: Upstream;
/** Between B and the database, to cut B off from it. */
let relayOfB: TcpProxy;
/** The management API of A, signed in with its one-time link. */
let api: Awaited<ReturnType<typeof signedInClient>>;

beforeAll(async () => {
  upstream = await startEchoUpstream();
  team = await startTeam(['A', 'B', 'C'], {
    env: { Flags__EnableServiceApiAuditLogRoute: 'true' },
    async connectionStringOf(name, connectionString) {
      if (name !== 'B') return connectionString;
      const url = new URL(connectionString);
      relayOfB = await startTcpProxy({ host: url.hostname, port: Number(url.port) });
      url.port = String(relayOfB.port);
      return url.toString();
    },
  });
  api = await signedInClient(instance('A').server);
}, 180_000);
afterAll(async () => {
  await team.remove();
  await relayOfB.close();
  await upstream.close();
});

function instance(name: string) {
  const found = team.instances.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no instance ${name}`);
  return found;
}

/** Imports an API at `basePath` through A's Control Panel and forwards all of it, publicly, to the echo. */
async function publishApi(basePath: string) {
  const imported = await api('/api/v1/apis', {
    method: 'POST',
    body: {
      openapi: '3.0.3',
      info: { title: `API ${basePath}`, version: '1.0.0' },
      servers: [{ url: `https://api.example.com${basePath}` }],
      paths: { '/items': { get: { responses: { '200': { description: 'ok' } } } } },
    },
  });
  expect(imported.status).toBe(201);
  const created = await api(`/api/v1/apis/${(imported.body as ApiImportResult).api.id}/passthrough`, {
    method: 'POST',
    body: {
      allOperations: {
        target: { section1: upstream.url, section2: '', section3: '{{#api.OperationPath}}', section4: '' },
      },
      policy: { name: `Public ${basePath}`, grants: [{ type: 'public' }] },
    },
  });
  expect(created.status).toBe(201);
}

/**
 * Polls every instance's gateway until each serves `path`. Instances reload their configuration only when told
 * (a notification, or a reconnection to the database), never on a timer, so the bound only ends a hung test.
 */
async function servedEverywhere(path: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  await Promise.all(
    team.instances.map(async ({ name, server }) => {
      while ((await freshRequest(server.gatewayUrl, path)).status !== 200) {
        if (Date.now() > deadline) throw new Error(`${path} not served by ${name} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }),
  );
}

describe('instances on one PostgreSQL', () => {
  it('serves a change made through A on B and C without a restart', async () => {
    const pids = team.instances.map(({ server }) => server.child.pid);
    for (const round of [1, 2, 3]) {
      const basePath = `/change-${round}`;
      await publishApi(basePath);
      await servedEverywhere(`${basePath}/items`);
    }
    expect(team.instances.map(({ server }) => server.child.pid)).toEqual(pids);
  }, 90_000);

  it('catches up on a change whose notification it missed, once its link to the database is back', async () => {
    const b = instance('B').server;
    await relayOfB.cut();
    await publishApi('/missed');
    // A and C serve it; B heard nothing and still answers 404 from its configuration in memory.
    expect((await freshRequest(instance('C').server.gatewayUrl, '/missed/items')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await freshRequest(b.gatewayUrl, '/missed/items')).status).toBe(404);
    await relayOfB.restore();
    // Only the reconnection can bring the change to B: its notification went out while it was cut off.
    await eventually(async () => (await freshRequest(b.gatewayUrl, '/missed/items')).status === 200, 30_000);
    expect(b.output()).toMatch(/change notifications from other instances are interrupted/);
  }, 60_000);

  it('names the instance in every audit entry and monitoring record, and filters by it', async () => {
    await publishApi('/named');
    for (const { server } of team.instances) {
      await servedEverywhere('/named/items');
      expect((await freshRequest(server.gatewayUrl, '/named/items?who=me')).status).toBe(200);
    }
    const listed = (await api('/api/v1/instances')).body as InstanceList;
    expect(listed.instances.map(({ name, current }) => ({ name, current }))).toEqual([
      { name: 'A', current: true },
      { name: 'B', current: false },
      { name: 'C', current: false },
    ]);
    // Each gateway's records name it; A's Control Panel reads them all from the one store.
    await vi.waitFor(
      async () => {
        for (const name of ['A', 'B', 'C']) {
          const page = (await api(`/api/v1/monitoring/requests?path=/named/items&instance=${name}`))
            .body as ListPage<MonitoringRecord>;
          expect(page.data.length).toBeGreaterThan(0);
          expect(page.data.every((record) => record.instance === name)).toBe(true);
        }
      },
      { timeout: 10_000, interval: 200 },
    );
    const all = (await api('/api/v1/monitoring/requests?path=/named/items&PageSize=500'))
      .body as ListPage<MonitoringRecord>;
    expect(new Set(all.data.map((record) => record.instance))).toEqual(new Set(['A', 'B', 'C']));
    // The configuration changes were made through A: A recorded them; each instance recorded its own agent events.
    const changes = (await api('/api/v1/audit-log?actionName=Passthroughs.Create')).body as AuditLogPage;
    expect(changes.totalCount).toBeGreaterThan(0);
    expect(changes.items.every((entry) => entry.instance === 'A')).toBe(true);
    for (const name of ['A', 'B', 'C']) {
      const started = (await api(`/api/v1/audit-log?actionName=Agent.Started&instance=${name}`))
        .body as AuditLogPage;
      expect(started.totalCount).toBeGreaterThan(0);
      expect(started.items.every((entry) => entry.instance === name)).toBe(true);
    }
  }, 60_000);
});
