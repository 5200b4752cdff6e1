/**
 * vitest globalSetup: the CLI the tests start as processes (`gatehouse serve`, `gatehouse audit …`), bundled once
 * per run from the current source by `npm run build:server`'s script into a folder of this run's own. Started
 * through tsx instead, each of the suite's few hundred CLI processes spent about a second of CPU transforming and
 * loading the source one module at a time (0.1 s bundled), most of a 2-core machine's time in those tests. The
 * folder's path reaches the tests (and test/helpers/cli-process.ts) as GATEHOUSE_TEST_CLI.
 *
 * Inside the checkout (under `out/`) so that the bundle finds node_modules and package.json as `out/server` does.
 */
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env.GATEHOUSE_TEST_CLI) return undefined;
  const outDir = join(ROOT, 'out', `test-cli-${process.pid}`);
  await promisify(execFile)(process.execPath, [join(ROOT, 'scripts/build-server.mjs'), outDir], {
    cwd: ROOT,
  });
  process.env.GATEHOUSE_TEST_CLI = join(outDir, 'cli.js');
  return () => rm(outDir, { recursive: true, force: true });
}
