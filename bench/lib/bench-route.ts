/**
 * The benchmarks' full-featured passthrough route, written into a Gatehouse's store: `GET /bench/items/{id}` to
 * `<target>/items/<x>` through an `#env` reference and `#api.QueryParameters.x`, two header entries, CORS on, an
 * API-key policy (optionally throttled) and monitoring. Returns the API key in clear.
 */
import { randomUUID } from 'node:crypto';
import type { Gatehouse } from '../../src-server/app/gatehouse.js';
import { dataDirLayout } from '../../src-server/core/data-dir/default-data-dir.js';
import { withEntryDefaults } from '../../src-server/core/passthrough/forwarding/index.js';
import type { PolicyRecord } from '../../src-server/core/model/config-model.js';
import {
  ApiKeyDigest,
  apiKeyPrefix,
  generateApiKey,
} from '../../src-server/control/policies/api-key-digest.js';

export async function configureBenchRoute(
  gatehouse: Pick<Gatehouse, 'config'>,
  dataDir: string,
  target: string,
  origin: string,
  throttle?: PolicyRecord['throttle'],
): Promise<string> {
  const digest = await ApiKeyDigest.open(dataDirLayout(dataDir).keysDir);
  const apiKey = generateApiKey();
  const at = new Date().toISOString();
  const apiId = randomUUID();
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
    data.apis.push({
      id: apiId,
      name: 'Bench API',
      version: '1',
      specVersion: '3.1',
      basePath: '/bench',
      agentGroupIds: ['default'],
      documentFile: 'bench.json',
      operations: [{ key: 'GET /items/{id}', method: 'GET', path: '/items/{id}', pathParameters: ['id'] }],
      revision: 1,
      importedAt: at,
      updatedAt: at,
    });
    data.passthroughs.push({
      id: randomUUID(),
      apiId,
      operations: {
        'GET /items/{id}': withEntryDefaults({
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
    data.apiKeys.push({
      id: randomUUID(),
      name: 'Bench key',
      environmentId: 'development',
      prefix: apiKeyPrefix(apiKey),
      digest: digest.digestApiKey(apiKey),
      policyIds: [],
      createdAt: at,
    });
  });
  return apiKey;
}
