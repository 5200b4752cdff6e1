/**
 * A full Gatehouse on a temporary data dir, configured with one passthrough to the benchmark's target: a templated
 * target (`#env` and `#api.QueryParameters.x`), two header entries, CORS on, an API-key policy and monitoring.
 * Usage: gatehouse-proxy <target origin>. Prints `{"port":N,"apiKey":"…","origin":"…"}` once ready.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGatehouse } from '../../src-server/app/gatehouse.js';
import { createLogger } from '../../src-server/core/logging/logger.js';
import { configureBenchRoute } from './bench-route.js';

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

const apiKey = await configureBenchRoute(gatehouse, dataDir, target, origin);
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
