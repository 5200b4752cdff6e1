import { startTestServer } from './test-server.js';
import { tempDir } from './temp-dir.js';

export interface PreparedDataDir {
  path: string;
  /** The API key in clear, when the policy grants API keys. */
  apiKey?: string;
  remove: () => Promise<void>;
}

/**
 * A data dir configured through the management API of a server that is stopped again, for `gatehouse serve`
 * processes to start on: an API at `basePath` whose All operations entry forwards to `target`, and a policy
 * (public, or an API key) with an optional throttle; the entry relays WebSocket sessions when asked.
 */
export async function prepareDataDir(options: {
  basePath: string;
  target: string;
  grant: 'public' | 'apiKey';
  throttle?: { limit: number; per: 'minute' | 'hour' | 'day' };
  /** The entry relays WebSocket sessions. */
  allowWebSocket?: boolean;
}): Promise<PreparedDataDir> {
  const dir = await tempDir();
  const server = await startTestServer({ dataDir: dir.path, keepDataDir: true });
  try {
    const call = async (path: string, body: unknown): Promise<Record<string, unknown>> => {
      const response = await server.api(path, { method: 'POST', body: JSON.stringify(body) });
      const answer = (await response.json()) as Record<string, unknown>;
      if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(answer)}`);
      return answer;
    };
    const document = {
      openapi: '3.0.3',
      info: { title: 'Team test API', version: '1.0.0' },
      servers: [{ url: `https://api.example.com${options.basePath}` }],
      paths: { '/items': { get: { responses: { '200': { description: 'ok' } } } } },
    };
    const imported = (await call('/api/v1/apis', document)) as { api: { id: string } };
    const created = (await call(`/api/v1/apis/${imported.api.id}/passthrough`, {
      allOperations: {
        target: {
          section1: options.target,
          section2: '',
          section3: '{{#api.OperationPath}}',
          section4: '{{#api.QueryParameters}}',
        },
        ...(options.allowWebSocket ? { allowWebSocket: true } : {}),
      },
      policy: {
        name: 'Team test policy',
        grants: [{ type: options.grant }],
        ...(options.throttle ? { throttle: options.throttle } : {}),
      },
    })) as { policy: { id: string } };
    let apiKey: string | undefined;
    if (options.grant === 'apiKey') {
      const key = (await call('/api/v1/api-keys', {
        name: 'Team test key',
        environmentId: 'development',
        policyIds: [created.policy.id],
      })) as { key: string };
      apiKey = key.key;
    }
    await server.close();
    return { path: dir.path, apiKey, remove: () => dir.remove() };
  } catch (error) {
    await server.close();
    await dir.remove();
    throw error;
  }
}
