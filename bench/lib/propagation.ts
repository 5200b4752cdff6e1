/**
 * Configuration propagation across a team (issue 11: p99 ≤ 1 s from the write's response to the last instance
 * serving the change). Three `gatehouse serve` instances (the built CLI) on one PostgreSQL server of their own,
 * one key file; per sample, an API at a new base path is imported through instance A (not timed), then its
 * passthrough is created through A — the timed write — while every instance's gateway is asked for the new path
 * every `pollMs` until it answers 200 (before: 404, no API there). A sample is the time from the write's response
 * to the last of the three first serving it; a sample that has not propagated within `timeoutMs` fails the run.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPostgresServer } from '../../test/helpers/postgres-server.js';
import { gatehouseToken, startGatehouseServe, type ServedGatehouse } from './gatehouse-serve.js';
import { percentile } from './stats.js';

export interface PropagationOptions {
  /** The target the passthroughs forward to (answers 200 to anything). */
  target: string;
  samples: number;
  pollMs?: number;
  timeoutMs?: number;
  log?: (line: string) => void;
}

export interface PropagationResult {
  /** Milliseconds, in sample order. */
  samples: number[];
  p50: number;
  p99: number;
  max: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function call(base: string, token: string, method: string, path: string, body: unknown) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

/** When the gateway first answers 200 at `path` (performance.now()), polling every `pollMs`. */
async function firstServed(
  gatewayUrl: string,
  path: string,
  pollMs: number,
  deadline: number,
): Promise<number> {
  for (;;) {
    const response = await fetch(`${gatewayUrl}${path}`);
    await response.arrayBuffer();
    const at = performance.now();
    if (response.status === 200) return at;
    if (at > deadline) throw new Error(`${gatewayUrl}${path} still answers ${response.status}`);
    await sleep(pollMs);
  }
}

export async function measurePropagation(options: PropagationOptions): Promise<PropagationResult> {
  const { target, samples: count, pollMs = 5, timeoutMs = 10_000, log = () => undefined } = options;
  const root = await mkdtemp(join(tmpdir(), 'gatehouse-bench-propagation-'));
  const postgres = await startPostgresServer();
  const instances: ServedGatehouse[] = [];
  try {
    const keyFile = join(root, 'secrets.key');
    await writeFile(keyFile, randomBytes(32).toString('base64'), { mode: 0o600 });
    const env = {
      ConnectionStrings__Gatehouse: postgres.url,
      Secrets__KeyFile: keyFile,
      Shutdown__ReadinessGraceSeconds: '0',
    };
    const start = (name: string) =>
      startGatehouseServe(join(root, name), { env: { ...env, Instance__Id: name } });
    // The first creates the schema and the configuration; the others join it.
    instances.push(await start('A'));
    instances.push(...(await Promise.all(['B', 'C'].map(start))));
    const token = gatehouseToken(join(root, 'cli'), 'Operator', '2h', env);
    const [a] = instances as [ServedGatehouse];
    const samples: number[] = [];
    for (let index = 0; index < count; index++) {
      const basePath = `/propagation-${index}`;
      const imported = await call(a.url, token, 'POST', '/api/v1/apis', {
        openapi: '3.0.3',
        info: { title: `Propagation ${index}`, version: '1.0.0' },
        servers: [{ url: `https://api.example.com${basePath}` }],
        paths: { '/items': { get: { responses: { '200': { description: 'ok' } } } } },
      });
      const apiId = (imported.api as { id: string }).id;
      await call(a.url, token, 'POST', `/api/v1/apis/${apiId}/passthrough`, {
        allOperations: { target: { section1: target, section2: '', section3: '', section4: '' } },
        policy: { name: `Propagation ${index}`, grants: [{ type: 'public' }] },
      });
      const answered = performance.now();
      const served = await Promise.all(
        instances.map((instance) =>
          firstServed(instance.gatewayUrl, `${basePath}/items`, pollMs, answered + timeoutMs),
        ),
      );
      const sample = Math.max(0, Math.max(...served) - answered);
      samples.push(sample);
      log(`sample ${index + 1}/${count}: ${sample.toFixed(1)} ms`);
    }
    const sorted = [...samples].sort((x, y) => x - y);
    return { samples, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? 0 };
  } finally {
    await Promise.all(instances.map((instance) => instance.stop()));
    await postgres.destroy();
    await rm(root, { recursive: true, force: true });
  }
}
