/**
 * The management side of bench:import's latency phases: a client of a `gatehouse serve`'s management API, and the
 * passthrough the load goes through (the load itself: open-loop-load.ts).
 */
import { readFile } from 'node:fs/promises';

/** Answers as sent: callers cast the body to what the status promises. */
export interface ManagementClient {
  call: (method: string, path: string, body?: unknown) => Promise<{ status: number; body: unknown }>;
  upload: (path: string, file: string) => Promise<{ status: number; body: unknown; ms: number }>;
  /**
   * Imports a file and returns the new API's id (from the Location header), reading the answer without parsing
   * it: for Microsoft Graph's that is megabytes of JSON, which would cost the machine's 2 cores ~50 ms of the
   * bench's own CPU per import beside the server it measures (an admin's browser runs elsewhere).
   */
  importFile: (path: string, file: string) => Promise<string>;
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
    async importFile(path: string, file: string) {
      const response = await fetch(`${baseUrl}${path}`, {
        method: 'POST',
        headers: {
          ...headers,
          'Content-Type': file.endsWith('.json') ? 'application/json' : 'application/yaml',
        },
        body: await readFile(file),
      });
      if (response.status !== 201)
        throw new Error(`import of ${file}: ${response.status} ${await response.text()}`);
      await response.arrayBuffer();
      const id = response.headers.get('location')?.split('/').pop();
      if (!id) throw new Error(`import of ${file}: no Location header`);
      return id;
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
