/**
 * The benchmarks' routes, written into a Gatehouse's store:
 *
 * - `GET /bench/items/{id}` (full-featured) to `<target>/items/<x>` through an `#env` reference and
 *   `#api.QueryParameters.x`, two header entries, CORS on, an API-key policy (optionally throttled);
 * - `GET /plain/items/{id}` (plain): a literal target, public.
 *
 * Monitoring records every request. `more` may add to the same change (the reconfiguration benchmark's large
 * APIs, public under `/large-a` and `/large-b`). Returns the API key in clear.
 */
import { randomUUID } from 'node:crypto';
import type { Gatehouse } from '../../src-server/app/gatehouse.js';
import { withEntryDefaults } from '../../src-server/core/passthrough/forwarding/index.js';
import type { ApiRecord, ConfigData, PolicyRecord } from '../../src-server/core/model/config-model.js';
import {
  ApiKeyDigest,
  apiKeyPrefix,
  generateApiKey,
} from '../../src-server/control/policies/api-key-digest.js';

export async function configureBenchRoute(
  gatehouse: Pick<Gatehouse, 'config' | 'keys'>,
  target: string,
  origin: string,
  throttle?: PolicyRecord['throttle'],
  more?: (data: ConfigData, at: string) => void,
): Promise<string> {
  const digest = await ApiKeyDigest.open(gatehouse.keys);
  const apiKey = generateApiKey();
  const at = new Date().toISOString();
  const apiId = randomUUID();
  const plainId = randomUUID();
  const policyId = randomUUID();
  await gatehouse.config.store.update((data) => {
    data.environmentVariables.push({
      id: randomUUID(),
      name: 'backend',
      kind: 'group',
      members: [{ name: 'url', type: 'string' }],
      values: { development: { url: { plain: target } } },
      createdAt: at,
      updatedAt: at,
    });
    data.apis.push(
      benchApi(apiId, '/bench', [ITEM_OPERATION], at),
      benchApi(plainId, '/plain', [ITEM_OPERATION], at),
    );
    data.passthroughs.push({
      id: randomUUID(),
      apiId: plainId,
      operations: {
        [ITEM_OPERATION.key]: withEntryDefaults({
          target: { section1: target, section2: 'items', section3: '42' },
        }),
      },
      revision: 1,
      createdAt: at,
      updatedAt: at,
    });
    data.passthroughs.push({
      id: randomUUID(),
      apiId,
      operations: {
        [ITEM_OPERATION.key]: withEntryDefaults({
          target: {
            section1: '{{#env.backend.url}}',
            section2: 'items',
            section3: '{{#api.QueryParameters.x}}',
          },
          headers: [
            { action: 'Overwrite', name: 'X-Api-Version', value: '2' },
            { action: 'Add', name: 'X-Request-Source', value: 'gatehouse-{{#api.OperationPath.id}}' },
          ],
          cors: { enabled: true, allowedOrigins: [origin], allowCredentials: false, maxAgeSeconds: 600 },
        }),
      },
      revision: 1,
      createdAt: at,
      updatedAt: at,
    });
    data.policies.push({
      id: policyId,
      name: 'Bench keys',
      agentGroupId: 'default',
      endpoints: [{ method: 'ALL', pathPrefix: '/bench' }],
      grants: [{ type: 'apiKey' }],
      ...(throttle ? { throttle } : {}),
      createdAt: at,
      updatedAt: at,
    });
    data.policies.push({
      id: randomUUID(),
      name: 'Public',
      agentGroupId: 'default',
      endpoints: ['/plain', '/large-a', '/large-b'].map((pathPrefix) => ({
        method: 'ALL' as const,
        pathPrefix,
      })),
      grants: [{ type: 'public' }],
      createdAt: at,
      updatedAt: at,
    });
    data.apiKeys.push({
      id: randomUUID(),
      name: 'Bench key',
      environmentId: 'development',
      prefix: apiKeyPrefix(apiKey),
      digest: digest.digestApiKey(apiKey),
      policyIds: [],
      createdAt: at,
    });
    more?.(data, at);
  });
  return apiKey;
}

const ITEM_OPERATION: ApiRecord['operations'][number] = {
  key: 'GET /items/{id}',
  method: 'GET',
  path: '/items/{id}',
  pathParameters: ['id'],
};

/** An API record of the benchmarks (on the default agent group). */
export function benchApi(
  id: string,
  basePath: string,
  operations: ApiRecord['operations'],
  at: string,
): ApiRecord {
  return {
    id,
    name: `Bench API ${basePath}`,
    version: '1',
    specVersion: '3.1',
    basePath,
    agentGroupIds: ['default'],
    documentFile: 'bench.json',
    operations,
    revision: 1,
    importedAt: at,
    updatedAt: at,
  };
}
