import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServeProcess, type ServeProcess } from '../../helpers/cli-process.js';
import { eventually, freshRequest } from '../../helpers/serve-client.js';
import { prepareDataDir, type PreparedDataDir } from '../../helpers/team-data-dir.js';
import { startEchoUpstream, type Upstream } from '../../helpers/upstreams.js';

// Issue 11, item 4: on SIGTERM a load balancer must see the instance go unready before its listeners close.
let upstream: Upstream;
let dataDir: PreparedDataDir;

beforeAll(async () => {
  upstream = await startEchoUpstream();
  dataDir = await prepareDataDir({ basePath: '/graced', target: upstream.url, grant: 'public' });
});
afterAll(async () => {
  await upstream.close();
  await dataDir.remove();
});

async function readiness(url: string): Promise<{ status: number; instance: string }> {
  const answer = await freshRequest(url, '/readyz');
  return { status: answer.status, instance: (JSON.parse(answer.body) as { instance: string }).instance };
}

/**
 * Whether the listener at `url` says it is unready. A connection reset while the signal is being handled counts as
 * not yet (seen on a heavily loaded machine in the moment after SIGTERM).
 */
async function unready(url: string): Promise<boolean> {
  try {
    return (await readiness(url)).status === 503;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ECONNRESET') return false;
    throw error;
  }
}

function connectionRefused(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ECONNREFUSED';
}

async function start(extra: string[], graceSeconds: number): Promise<ServeProcess> {
  return startServeProcess(
    dataDir.path,
    ['--set', `Shutdown:ReadinessGraceSeconds=${graceSeconds}`, '--set', 'Shutdown:DrainSeconds=5', ...extra],
    { startTimeoutMs: 60_000 },
  );
}

describe('SIGTERM with a readiness grace', () => {
  it.each([
    ['in one process', [], 1],
    ['with two gateway workers', ['--workers', '2'], 2],
  ])(
    '/readyz answers 503 at once on every listener while they keep accepting, then they close (%s)',
    async (_, extra, workers) => {
      const server = await start(extra, 3);
      expect((await readiness(server.gatewayUrl)).status).toBe(200);
      expect((await readiness(server.controlPanelUrl)).status).toBe(200);

      const signalledAt = Date.now();
      server.child.kill('SIGTERM');
      let exitedAt: number | undefined;
      void server.exited.then(() => (exitedAt = Date.now()));
      // Once the signal is handled, every listener (every worker's too) says 503.
      await eventually(() => unready(server.controlPanelUrl));
      const gatewayAnswers = await Promise.all(
        Array.from({ length: 8 * workers }, () => readiness(server.gatewayUrl)),
      );
      expect(gatewayAnswers.map((answer) => answer.status)).toEqual(gatewayAnswers.map(() => 503));
      expect(new Set(gatewayAnswers.map((answer) => answer.instance)).size).toBe(workers);
      expect((await readiness(server.controlPanelUrl)).status).toBe(503);
      // ...and still serves what a load balancer sent before its probe saw the 503.
      const served = await freshRequest(server.gatewayUrl, '/graced/items?during=grace');
      expect(served.status).toBe(200);
      expect(served.body).toContain('during=grace');
      expect(exitedAt).toBeUndefined();

      expect(await server.exited, server.output()).toBe(0);
      // It kept accepting for the whole grace, then closed on its own.
      expect(exitedAt! - signalledAt).toBeGreaterThanOrEqual(2_900);
      const afterwards = await freshRequest(server.gatewayUrl, '/graced/items').catch(
        (error: unknown) => error,
      );
      expect(connectionRefused(afterwards)).toBe(true);
    },
    90_000,
  );

  it('Ctrl+C skips the grace, and a second SIGTERM cuts it short', async () => {
    // An hour's grace, far past the test's timeout: only skipping it or cutting it short lets them exit.
    const interrupted = await start([], 3600);
    interrupted.child.kill('SIGINT');
    expect(await interrupted.exited).toBe(0);

    const terminated = await start([], 3600);
    terminated.child.kill('SIGTERM');
    await eventually(() => unready(terminated.gatewayUrl));
    terminated.child.kill('SIGTERM');
    expect(await terminated.exited).toBe(0);
  }, 90_000);
});
