import { runGatewayWorker } from './worker-main.js';

// The module `node:cluster` runs in each gateway worker of `gatehouse serve --workers N`.
runGatewayWorker().catch((error: unknown) => {
  process.stderr.write(`gateway worker failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
