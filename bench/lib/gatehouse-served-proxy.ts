/**
 * bench:proxy's Gatehouse as users run it: `gatehouse serve` (the built CLI, out/server/cli.js of the checkout this
 * script runs from) on a temporary data dir that holds gatehouse-proxy.ts's two routes (bench-route.ts), written
 * first by an in-process Gatehouse that is closed again. What serve brings is measured with it: its heap policy
 * (core/threads/heap-sizing.ts: the young generation grows under gateway load), its settings from the environment,
 * its logging.
 *
 * Usage: gatehouse-served-proxy <target origin>. Prints one JSON line once serve is ready, with `servedPid`, the
 * serve process (whose CPU the benchmark reads); stops serve on SIGTERM.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGatehouse } from '../../src-server/app/gatehouse.js';
import { createLogger } from '../../src-server/core/logging/logger.js';
import { configureBenchRoute } from './bench-route.js';
import { startGatehouseServe } from './gatehouse-serve.js';

const target = process.argv[2];
if (!target) throw new Error('usage: gatehouse-served-proxy <target origin>');
const origin = 'https://app.example.com';
const dataDir = await mkdtemp(join(tmpdir(), 'gatehouse-bench-served-'));

const writer = await startGatehouse({
  dataDir,
  port: 0,
  gatewayPort: 0,
  env: {},
  logger: createLogger('warn'),
  uiDir: undefined,
});
const apiKey = await configureBenchRoute(writer, target, origin);
await writer.close();

// The started-from directory is the checkout's root (bench-children.ts), so a --compare-dir runs its own build.
const served = await startGatehouseServe(dataDir, { cli: join(process.cwd(), 'out/server/cli.js') });
const port = Number(new URL(served.gatewayUrl).port);
console.log(JSON.stringify({ port, apiKey, origin, servedPid: served.pid }));

const stop = async () => {
  await served.stop();
  await rm(dataDir, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
