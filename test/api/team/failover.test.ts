import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiImportResult } from '../../../src-server/core/contracts/index.js';
import { runCli } from '../../helpers/cli-process.js';
import { eventually, freshRequest } from '../../helpers/serve-client.js';
import { startTeam, type Team, type TeamInstance } from '../../helpers/team-instances.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { startEchoUpstream, type Upstream } from '../../helpers/upstreams.js';

// Issue 11, item 6: three instances on loopback under load — one killed with SIGKILL, then a rolling restart.
let team: Team;
let upstream: Upstream;
let database: pg.Client;
let token: string;

beforeAll(async () => {
  upstream = await startEchoUpstream();
  team = await startTeam(['A', 'B', 'C'], {
    env: { Flags__EnableServiceApiAuditLogRoute: 'true', Shutdown__ReadinessGraceSeconds: '1' },
  });
  database = new pg.Client({ connectionString: team.connectionString });
  await database.connect();
  const dir = await tempDir('gatehouse-token-');
  try {
    const minted = await runCli(['token', '--roles', 'Operator', '--data-dir', join(dir.path, 'cli')], {
      env: team.env,
    });
    expect(minted.code, minted.stderr).toBe(0);
    token = minted.stdout.trim();
  } finally {
    await dir.remove();
  }
  const imported = await call(team.instances[0]!, 'POST', '/api/v1/apis', {
    openapi: '3.0.3',
    info: { title: 'Busy', version: '1.0.0' },
    servers: [{ url: 'https://api.example.com/busy' }],
    paths: { '/items': { get: { responses: { '200': { description: 'ok' } } } } },
  });
  expect(imported.status).toBe(201);
  const created = await call(
    team.instances[0]!,
    'POST',
    `/api/v1/apis/${(imported.body as ApiImportResult).api.id}/passthrough`,
    {
      allOperations: {
        target: { section1: upstream.url, section2: '', section3: '{{#api.OperationPath}}', section4: '' },
      },
      policy: { name: 'Busy', grants: [{ type: 'public' }] },
    },
  );
  expect(created.status).toBe(201);
  for (const { server } of team.instances) {
    await eventually(async () => (await freshRequest(server.gatewayUrl, '/busy/items')).status === 200);
  }
}, 180_000);
afterAll(async () => {
  await database.end();
  await team.remove();
  await upstream.close();
});

async function call(instance: TeamInstance, method: string, path: string, body?: unknown) {
  const response = await fetch(`${instance.server.controlPanelUrl}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      Connection: 'close',
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

async function jobHolders(): Promise<string[]> {
  const { rows } = await database.query<{ name: string }>(
    `select a.application_name as name from pg_locks l join pg_stat_activity a on a.pid = l.pid
      where l.locktype = 'advisory' and l.granted and a.application_name like 'gatehouse-jobs:%'`,
  );
  return rows.map((row) => row.name.slice('gatehouse-jobs:'.length));
}

/** A connection refused was never accepted: the client may send it elsewhere. Anything else unanswered is lost. */
function refused(error: unknown): boolean {
  const code =
    (error as { code?: string; cause?: { code?: string } }).code ??
    (error as { cause?: { code?: string } }).cause?.code;
  return code === 'ECONNREFUSED';
}

interface Load {
  /** Gateway answers by status, per instance name; lost: accepted but never answered in full. */
  served: Map<string, number[]>;
  lost: string[];
  /** Environments whose creation was acknowledged (201). */
  acknowledged: string[];
  /** Writes that got no answer: not acknowledged. */
  unanswered: string[];
  /** With a load balancer: the instances its probe saw answer `/readyz` with 503 (leaving, still listening). */
  sawUnready: Set<string>;
  stop: () => Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A load balancer's view of the instances: each gateway's `/readyz` probed every 100 ms; an instance is in the
 * pool from its first 200 until an answer that is not 200 (503, or no connection).
 */
function probeReadiness(instances: () => TeamInstance[], sawUnready: Set<string>) {
  const ready = new Set<string>();
  let running = true;
  const probe = async (instance: TeamInstance) => {
    while (running) {
      const url = instance.server.gatewayUrl;
      const status = await freshRequest(url, '/readyz').then(
        (answer) => answer.status,
        () => 0,
      );
      if (status === 200) ready.add(url);
      else ready.delete(url);
      if (status === 503) sawUnready.add(instance.name);
      await sleep(100);
    }
  };
  const probes = instances().map(probe);
  return {
    pool: () => instances().filter((instance) => ready.has(instance.server.gatewayUrl)),
    stop: async () => {
      running = false;
      await Promise.all(probes);
    },
  };
}

/**
 * Gateway requests and configuration writes, rotating over the instances given, until stopped. With
 * `balanced`, requests go only to the instances a load balancer's readiness probe has in its pool.
 */
function startLoad(instances: () => TeamInstance[], { balanced = false } = {}): Load {
  const load: Load = {
    served: new Map(),
    lost: [],
    acknowledged: [],
    unanswered: [],
    sawUnready: new Set(),
    stop: () => Promise.resolve(),
  };
  const balancer = balanced ? probeReadiness(instances, load.sawUnready) : undefined;
  const pool = balancer ? balancer.pool : instances;
  let running = true;
  let counter = 0;
  const gatewayLoop = async (lane: number) => {
    for (let index = lane; running; index += 4) {
      const members = pool();
      const instance = members[index % Math.max(members.length, 1)];
      if (!instance) {
        await sleep(20);
        continue;
      }
      try {
        const answer = await freshRequest(instance.server.gatewayUrl, '/busy/items');
        const list = load.served.get(instance.name) ?? [];
        list.push(answer.status);
        load.served.set(instance.name, list);
      } catch (error) {
        if (!refused(error)) load.lost.push(`${instance.name}: ${(error as Error).message}`);
      }
    }
  };
  const writeLoop = async () => {
    for (let index = 0; running; index++) {
      const members = pool();
      const instance = members[index % Math.max(members.length, 1)];
      if (!instance) {
        await sleep(20);
        continue;
      }
      try {
        const created = await call(instance, 'POST', '/api/v1/environments', { name: `load-${counter++}` });
        if (created.status === 201) load.acknowledged.push((created.body as { id: string }).id);
      } catch (error) {
        // Not acknowledged (the instance was killed, or refused the connection): nothing is claimed for it.
        load.unanswered.push(`${instance.name}: ${(error as Error).message}`);
      }
    }
  };
  const loops = [0, 1, 2, 3].map(gatewayLoop).concat(writeLoop());
  load.stop = async () => {
    running = false;
    await Promise.all(loops);
    await balancer?.stop();
  };
  return load;
}

async function everyAcknowledgedWriteIsThere(at: TeamInstance, ids: string[]): Promise<void> {
  for (const id of ids) expect((await call(at, 'GET', `/api/v1/environments/${id}`)).status, id).toBe(200);
}

describe('a team under load', () => {
  it('kill -9 of one instance: the others keep serving, nothing acknowledged is lost, the jobs move', async () => {
    const [a, b, c] = team.instances as [TeamInstance, TeamInstance, TeamInstance];
    await eventually(async () => (await jobHolders()).length === 1);
    // The survivors' gateways are measured; the writes go to all three, the victim included.
    const survivors = startLoad(() => [b, c]);
    const writesEverywhere = startLoad(() => [a, b, c]);
    await sleep(1_500);
    await a.kill();
    await sleep(2_500);
    await Promise.all([survivors.stop(), writesEverywhere.stop()]);

    expect(survivors.lost).toEqual([]);
    for (const name of ['B', 'C']) {
      const statuses = survivors.served.get(name) ?? [];
      expect(statuses.length).toBeGreaterThan(10);
      expect(statuses.every((status) => status === 200)).toBe(true);
    }
    const acknowledged = [...survivors.acknowledged, ...writesEverywhere.acknowledged];
    expect(acknowledged.length).toBeGreaterThan(5);
    await everyAcknowledgedWriteIsThere(b, acknowledged);
    await eventually(async () => {
      const holders = await jobHolders();
      return holders.length === 1 && holders[0] !== 'A';
    }, 10_000);
  }, 120_000);

  // Behind a load balancer that probes /readyz: on SIGTERM each instance answers 503 while it keeps accepting for
  // Shutdown:ReadinessGraceSeconds (1 s here, ten probe intervals), so the balancer stops sending before the
  // listeners close and no connection it opened is reset.
  it('a rolling restart of all three loses no request that was accepted, nor an acknowledged write', async () => {
    for (const instance of team.instances) {
      const { child } = instance.server;
      if (child.exitCode !== null || child.signalCode !== null) await instance.restart();
    }
    const load = startLoad(() => team.instances, { balanced: true });
    await eventually(() => [...load.served.keys()].length === team.instances.length);
    for (const instance of team.instances) {
      await sleep(500);
      expect(await instance.stop()).toBe(0);
      await instance.restart();
      await eventually(
        async () =>
          (await fetch(`${instance.server.controlPanelUrl}/readyz`).catch(() => undefined))?.status === 200,
      );
      // Back in the balancer's pool (its gateway probed ready and serving) before the next one goes.
      const servedBefore = load.served.get(instance.name)?.length ?? 0;
      await eventually(() => (load.served.get(instance.name)?.length ?? 0) > servedBefore + 5);
    }
    await sleep(500);
    await load.stop();
    expect(load.lost).toEqual([]);
    expect([...load.sawUnready].sort()).toEqual(['A', 'B', 'C']);
    const statuses = [...load.served.values()].flat();
    expect(statuses.length).toBeGreaterThan(30);
    expect(statuses.every((status) => status === 200)).toBe(true);
    expect(load.acknowledged.length).toBeGreaterThan(5);
    await everyAcknowledgedWriteIsThere(team.instances[0]!, load.acknowledged);
  }, 180_000);
});
