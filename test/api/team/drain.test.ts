import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServeProcess } from '../../helpers/cli-process.js';
import { eventually } from '../../helpers/serve-client.js';
import { prepareDataDir, type PreparedDataDir } from '../../helpers/team-data-dir.js';
import { startEchoUpstream, type Upstream } from '../../helpers/upstreams.js';

let upstream: Upstream;
let dataDir: PreparedDataDir;

beforeAll(async () => {
  upstream = await startEchoUpstream();
  dataDir = await prepareDataDir({ basePath: '/slow', target: upstream.url, grant: 'public' });
});
afterAll(async () => {
  await upstream.close();
  await dataDir.remove();
});

interface Outcome {
  id: string;
  startedAt: number;
  endedAt: number;
  status?: number;
  complete?: boolean;
  error?: string;
}

/** One GET through a keep-alive agent; the body must arrive whole (the echo's JSON names the request). */
function call(agent: Agent, gatewayUrl: string, id: string, delayMs: number): Promise<Outcome> {
  const target = new URL(gatewayUrl);
  const startedAt = Date.now();
  return new Promise((resolve) => {
    const req = request(
      { host: target.hostname, port: target.port, path: `/slow/items?id=${id}&delay=${delayMs}`, agent },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () =>
          resolve({
            id,
            startedAt,
            endedAt: Date.now(),
            status: res.statusCode,
            complete: body.includes(`id=${id}`),
          }),
        );
        res.on('error', (error) => resolve({ id, startedAt, endedAt: Date.now(), error: error.message }));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ id, startedAt, endedAt: Date.now(), error: error.code ?? error.message }),
    );
    req.end();
  });
}

describe('SIGTERM drains the listeners', () => {
  it.each([
    ['in one process', []],
    ['with two gateway workers', ['--workers', '2']],
  ])(
    'stops accepting, finishes every request it accepted under load, then exits 0 (%s)',
    async (_, extra) => {
      // A drain time far past the test's timeout: the process exits because its requests finished, not because
      // the drain ran out.
      const server = await startServeProcess(dataDir.path, ['--set', 'Shutdown:DrainSeconds=600', ...extra], {
        startTimeoutMs: 60_000,
      });
      const agent = new Agent({ keepAlive: true, maxSockets: 16 });
      const run = extra.length === 0 ? 'single' : 'workers';
      const outcomes: Outcome[] = [];
      let exited = false;
      let next = 0;
      const client = async (lane: number) => {
        while (!exited) {
          const id = `${run}-${lane}-${next++}`;
          const outcome = await call(agent, server.gatewayUrl, id, 150 + (next % 5) * 50);
          outcomes.push(outcome);
          if (outcome.error) await new Promise((resolve) => setTimeout(resolve, 20));
        }
      };
      const lanes = Array.from({ length: 16 }, (_, lane) => client(lane));
      // Under load: the signal comes once 50 requests have been answered, however long a loaded machine takes.
      await eventually(() => outcomes.filter((outcome) => outcome.status === 200).length > 50, 60_000);
      const signalledAt = Date.now();
      server.child.kill('SIGTERM');
      const code = await server.exited;
      exited = true;
      await Promise.all(lanes);
      agent.destroy();

      expect(code, server.output()).toBe(0);
      expect(server.output()).toContain('SIGTERM: stopping');
      // Every request the target saw was answered to the client, whole: none accepted was lost.
      const received = new Set(
        upstream.requests.map((seen) => new URL(seen.url, 'http://x').searchParams.get('id')),
      );
      const byId = new Map(outcomes.map((outcome) => [outcome.id, outcome]));
      for (const id of received) {
        if (id === null || !id.startsWith(`${run}-`)) continue;
        expect(byId.get(id), `request ${id}`).toMatchObject({ status: 200, complete: true });
      }
      // Some were in flight when the signal came and still completed after it.
      const drained = outcomes.filter(
        (outcome) =>
          outcome.status === 200 && outcome.startedAt < signalledAt && outcome.endedAt > signalledAt,
      );
      expect(drained.length).toBeGreaterThan(0);
      // Requests the gateway never read were refused at the connection, never answered with an error status.
      const failed = outcomes.filter((outcome) => outcome.status !== 200);
      for (const outcome of failed) {
        expect(outcome.status, JSON.stringify(outcome)).toBeUndefined();
        expect(received.has(outcome.id)).toBe(false);
      }
    },
    90_000,
  );

  it('cuts what is still running after Shutdown:DrainSeconds, and still exits 0', async () => {
    const server = await startServeProcess(dataDir.path, ['--set', 'Shutdown:DrainSeconds=1']);
    const agent = new Agent({ keepAlive: true });
    // The target would answer long after the test's timeout: only the cut ends this request.
    const slow = call(agent, server.gatewayUrl, 'stuck', 600_000);
    await until(() => upstream.arrivals.some((url) => url.includes('id=stuck')));
    const signalledAt = Date.now();
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    // It let the request run for the whole drain second before cutting it.
    expect(Date.now() - signalledAt).toBeGreaterThanOrEqual(900);
    expect((await slow).error).toBeDefined();
    agent.destroy();
  });
});

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
