/**
 * A full Gatehouse on a temporary data dir, configured with one passthrough to the benchmark's target: a templated
 * target (`#env` and `#api.QueryParameters.x`), two header entries, CORS on, an API-key policy and monitoring.
 * Usage: gatehouse-proxy <target origin>. Prints `{"port":N,"apiKey":"…","origin":"…"}` once ready.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGatehouse } from '../../src-server/app/gatehouse.js';
import { createLogger } from '../../src-server/core/logging/logger.js';
import { withEntryDefaults } from '../../src-server/core/passthrough/forwarding/index.js';
import {
  ApiKeyDigest,
  apiKeyPrefix,
  generateApiKey,
} from '../../src-server/control/policies/api-key-digest.js';

const target = process.argv[2];
if (!target) throw new Error('usage: gatehouse-proxy <target origin>');
const origin = 'https://app.example.com';
const dataDir = await mkdtemp(join(tmpdir(), 'gatehouse-bench-proxy-'));
const logger = createLogger('warn');
const gatehouse = await startGatehouse({
  dataDir,
  port: 0,
  gatewayPort: 0,
  env: {},
  logger,
  uiDir: undefined,
});
// Diagnostics only: BENCH_NO_MONITORING=1 replaces API Monitoring with a sink that drops records.
if (process.env.BENCH_NO_MONITORING === '1') gatehouse.gateway.setMonitoringSink({ record: () => undefined });

const digest = await ApiKeyDigest.open(gatehouse.keys);
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
await gatehouse.gateway.settled();
const port = Number(new URL(gatehouse.gatewayEndpoints()[0]!.url).port);
console.log(JSON.stringify({ port, apiKey, origin }));

const stop = async () => {
  await gatehouse.close();
  await rm(dataDir, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
