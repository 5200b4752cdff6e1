import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiImportResult } from '../../../src-server/core/contracts/index.js';
import { freshRequest, signedInClient } from '../../helpers/serve-client.js';
import { startTeam, type Team } from '../../helpers/team-instances.js';
import { startEchoUpstream, type Upstream } from '../../helpers/upstreams.js';

let team: Team;
let upstream: Upstream;

beforeAll(async () => {
  upstream = await startEchoUpstream();
  // No Redis: three instances on one PostgreSQL count there. This machine's cores are shared by the test, the
  // instances and the database: a longer wait than the default 100 ms keeps slow answers from failing open.
  team = await startTeam(['A', 'B', 'C'], {
    env: { Logging__Level: 'info', RateLimiting__TimeoutMs: '2000' },
  });
}, 180_000);
afterAll(async () => {
  await team.remove();
  await upstream.close();
});

describe('throttling counted in PostgreSQL by a team without Redis', () => {
  it('holds a limit of 100 an hour within 2 % while requests rotate over three instances, in parallel', async () => {
    for (const { server } of team.instances) {
      expect(server.output()).toContain('API-policy throttling counts in PostgreSQL');
    }
    const api = await signedInClient(team.instances[0]!.server);
    const imported = await api('/api/v1/apis', {
      method: 'POST',
      body: {
        openapi: '3.0.3',
        info: { title: 'Limited', version: '1.0.0' },
        servers: [{ url: 'https://api.example.com/limited' }],
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
        // An hour, not a minute: the sliding window weighs the previous window by its remaining overlap, so a run
        // that crosses into the next window is rightly allowed more (a minute's window let 107 of a 12-second run
        // through on a loaded machine); across an hour's boundary such a run gains less than one request.
        policy: { name: 'Limited', grants: [{ type: 'public' }], throttle: { limit: 100, per: 'hour' } },
      },
    });
    expect(created.status).toBe(201);

    const statuses: number[] = [];
    // Each instance serves it (those requests count too: the same client, the same counter).
    for (const { server } of team.instances) {
      for (;;) {
        const { status } = await freshRequest(server.gatewayUrl, '/limited/items');
        statuses.push(status);
        if (status === 200) break;
        expect(status).toBe(404);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
    // 300 more, ten at a time, each batch spread over A, B and C.
    for (let batch = 0; batch < 30; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          freshRequest(team.instances[(batch * 10 + index) % 3]!.server.gatewayUrl, '/limited/items'),
        ),
      );
      statuses.push(...answers.map((answer) => answer.status));
    }
    const allowed = statuses.filter((status) => status === 200).length;
    expect(allowed).toBeGreaterThanOrEqual(98);
    expect(allowed).toBeLessThanOrEqual(102);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(198);
    expect(statuses.every((status) => [200, 404, 429].includes(status))).toBe(true);
    for (const { server } of team.instances)
      expect(server.output()).not.toContain('rate-limit store unavailable');
  }, 120_000);
});
