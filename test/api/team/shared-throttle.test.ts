import { cp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ListPage, MonitoringRecord } from '../../../src-server/core/contracts/index.js';
import { startServeProcess, type ServeProcess } from '../../helpers/cli-process.js';
import { startTestRedis, type TestRedis } from '../../helpers/redis-server.js';
import { eventually, freshRequest, signedInClient } from '../../helpers/serve-client.js';
import { prepareDataDir, type PreparedDataDir } from '../../helpers/team-data-dir.js';
import { startTestServer } from '../../helpers/test-server.js';
import { startEchoUpstream, type Upstream } from '../../helpers/upstreams.js';

let redis: TestRedis;
let upstream: Upstream;
let dataDir: PreparedDataDir;
const copies: string[] = [];

/** The same tenant in another directory: instances with one configuration, before PostgreSQL shares it. */
async function copyOfDataDir(name: string): Promise<string> {
  const copy = join(dataDir.path, '..', `${name}-${Date.now()}`);
  await cp(dataDir.path, copy, { recursive: true });
  copies.push(copy);
  return copy;
}

beforeAll(async () => {
  redis = await startTestRedis();
  upstream = await startEchoUpstream();
  dataDir = await prepareDataDir({
    basePath: '/limited',
    target: upstream.url,
    grant: 'apiKey',
    throttle: { limit: 10, per: 'hour' },
  });
}, 60_000);
afterAll(async () => {
  await redis.stop();
  await upstream.close();
  for (const copy of copies) await rm(copy, { recursive: true, force: true });
  await dataDir.remove();
});

const withKey = () => ({ headers: { 'X-API-Key': dataDir.apiKey! } });

describe('throttling shared through Redis by two gateway processes', () => {
  let first: ServeProcess;
  let second: ServeProcess;
  const redisArgs = () => [
    '--set',
    `ConnectionStrings:Redis=${redis.url}`,
    '--set',
    'RateLimiting:TimeoutMs=200',
  ];

  beforeAll(async () => {
    [first, second] = await Promise.all([
      startServeProcess(await copyOfDataDir('first'), redisArgs(), {
        logLevel: 'info',
        startTimeoutMs: 60_000,
      }),
      startServeProcess(await copyOfDataDir('second'), redisArgs(), {
        logLevel: 'info',
        startTimeoutMs: 60_000,
      }),
    ]);
  }, 90_000);
  afterAll(async () => {
    for (const server of [first, second]) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });

  async function alternate(count: number): Promise<number[]> {
    const statuses: number[] = [];
    // A request left waiting on a dead Redis would fail the test by its timeout.
    for (let index = 0; index < count; index++) {
      const answer = await freshRequest((index % 2 ? second : first).gatewayUrl, '/limited/items', withKey());
      statuses.push(answer.status);
    }
    return statuses;
  }

  it('a client cannot exceed its limit by spreading requests over the processes', async () => {
    const statuses = await alternate(30);
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
  });

  it('Redis killed: each process counts on its own at once (fail open, the default), logged once, noted in monitoring', async () => {
    await redis.kill();
    const statuses = await alternate(12);
    // Each process allows the limit again, counted locally: 6 each, all under it.
    expect(statuses).toEqual(Array(12).fill(200));
    for (const server of [first, second]) {
      const warnings = server.output().match(/rate-limit store unavailable[^"]*/g) ?? [];
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('counted in this process only (RateLimiting:FailureMode=open)');
      // The log line names Redis by its address, never with the password.
      expect(server.output()).not.toContain(redis.password);
    }
    const api = await signedInClient(first);
    await eventually(async () => {
      const listed = (await api('/api/v1/monitoring/requests?PageSize=1')).body as ListPage<MonitoringRecord>;
      return listed.data[0]?.reason === 'rate limit (counted in this process: rate-limit store unavailable)';
    });
  });

  it('Redis back: both processes count there together again', async () => {
    await redis.restart();
    await eventually(() =>
      [first, second].every((server) => server.output().includes('rate-limit store reachable again')),
    );
    // The restarted Redis kept nothing: the shared count starts again from zero, for both processes at once.
    const statuses = await alternate(24);
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
  });
});

describe('RateLimiting:FailureMode=closed at the gateway', () => {
  it('answers 503 GH_ERR_RATE_LIMIT_UNAVAILABLE with Retry-After while Redis is down', async () => {
    const server = await startTestServer({
      dataDir: await copyOfDataDir('closed'),
      keepDataDir: true,
      settings: {
        'ConnectionStrings:Redis': redis.url,
        'RateLimiting:FailureMode': 'closed',
        'RateLimiting:TimeoutMs': 200,
      },
    });
    const records: { outcome: string; reason?: string; status: number }[] = [];
    server.gatehouse.gateway.setMonitoringSink({ record: (record) => records.push(record) });
    try {
      const settings = (await (await server.api('/api/v1/tenant/settings?PageSize=200')).json()) as {
        data: { key: string; effectiveValue: unknown; configuredValue: unknown }[];
      };
      // The connection string holds a password: the API never shows it.
      const masked = `redis://:********@127.0.0.1:${redis.port}`;
      expect(settings.data.find((setting) => setting.key === 'ConnectionStrings:Redis')).toMatchObject({
        effectiveValue: masked,
        configuredValue: masked,
      });
      expect(JSON.stringify(settings)).not.toContain(redis.password);
      await eventually(
        async () => (await freshRequest(server.gatewayUrl, '/limited/items', withKey())).status !== 503,
      );
      await redis.kill();
      const refused = await freshRequest(server.gatewayUrl, '/limited/items', withKey());
      expect(refused.status).toBe(503);
      expect(refused.headers['retry-after']).toBe('1');
      expect(JSON.parse(refused.body)).toMatchObject({ code: 'GH_ERR_RATE_LIMIT_UNAVAILABLE', status: 503 });
      expect(records.at(-1)).toMatchObject({
        status: 503,
        outcome: 'throttled',
        reason: 'rate-limit store unavailable (RateLimiting:FailureMode=closed)',
      });
    } finally {
      await server.close();
      await redis.restart();
    }
  });
});
