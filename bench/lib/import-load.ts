/**
 * Gateway latency while descriptions are imported: autocannon at a fixed rate against one passthrough of a
 * `gatehouse serve`, once quietly and once while the largest descriptions are imported over the management API.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { ROOT } from './gatehouse-serve.js';

export interface LoadResult {
  requests: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  non2xx: number;
}

export function fixedRateLoad(url: string, seconds: number, rate: number): Promise<LoadResult> {
  const child = spawn(
    'node_modules/.bin/autocannon',
    ['-c', '4', '-R', String(rate), '-d', String(seconds), '-j', '-n', url],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) {
        reject(new Error(`autocannon exited with ${String(code)}`));
        return;
      }
      const report = JSON.parse(output) as {
        requests: { total: number };
        latency: { p50: number; p99: number; max: number };
        errors: number;
        non2xx: number;
      };
      resolve({
        requests: report.requests.total,
        p50: report.latency.p50,
        p99: report.latency.p99,
        max: report.latency.max,
        errors: report.errors,
        non2xx: report.non2xx,
      });
    });
  });
}

/** Answers as sent: callers cast the body to what the status promises. */
export interface ManagementClient {
  call: (method: string, path: string, body?: unknown) => Promise<{ status: number; body: unknown }>;
  upload: (path: string, file: string) => Promise<{ status: number; body: unknown; ms: number }>;
}

export function managementClient(baseUrl: string, token: string): ManagementClient {
  const headers = { Authorization: `Bearer ${token}` };
  return {
    async call(method: string, path: string, body?: unknown) {
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: { ...headers, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, body: (text ? JSON.parse(text) : undefined) as unknown };
    },
    async upload(path: string, file: string) {
      const content = await readFile(file);
      const started = performance.now();
      const response = await fetch(`${baseUrl}${path}`, {
        method: 'POST',
        headers: {
          ...headers,
          'Content-Type': file.endsWith('.json') ? 'application/json' : 'application/yaml',
        },
        body: content,
      });
      const body = (await response.json()) as unknown;
      return { status: response.status, body, ms: performance.now() - started };
    },
  };
}

/** One API at /bench whose `All operations` forwards to the upstream, open to everyone. */
export async function setUpPassthrough(client: ManagementClient, upstream: string): Promise<void> {
  const document = {
    openapi: '3.0.3',
    info: { title: 'Bench', version: '1' },
    servers: [{ url: '/bench' }],
    paths: { '/items/{id}': { get: { responses: { 200: { description: 'ok' } } } } },
  };
  const imported = await client.call('POST', '/api/v1/apis', document);
  if (imported.status !== 201) throw new Error(`bench API import: ${imported.status}`);
  const apiId = (imported.body as { api: { id: string } }).api.id;
  const passthrough = await client.call('POST', `/api/v1/apis/${apiId}/passthrough`, {
    allOperations: { target: { section1: upstream, section2: 'items', section3: '' } },
  });
  if (passthrough.status !== 201) throw new Error(`bench passthrough: ${passthrough.status}`);
  const policy = await client.call('POST', '/api/v1/policies', {
    name: 'Bench, public',
    agentGroupId: 'default',
    endpoints: [{ method: 'ALL', pathPrefix: '/bench' }],
    grants: [{ type: 'public' }],
  });
  if (policy.status !== 201) throw new Error(`bench policy: ${policy.status} ${JSON.stringify(policy.body)}`);
}
