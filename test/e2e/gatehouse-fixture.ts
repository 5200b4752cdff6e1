import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test as base } from '@playwright/test';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface ServedGatehouse {
  dataDir: string;
  controlPanelUrl: string;
  gatewayUrl: string;
  signInUrl: string;
  /** A bearer token printed by `gatehouse token` for API calls made by the test itself. */
  token(roles?: string): Promise<string>;
}

function run(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'out/server/cli.js'), ...args], { cwd: ROOT });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`gatehouse ${args[0]} failed: ${err}`))));
  });
}

async function serve(dataDir: string): Promise<{ child: ChildProcess; output: string }> {
  const child = spawn(
    process.execPath,
    [join(ROOT, 'out/server/cli.js'), 'serve', '--data-dir', dataDir, '--port', '0', '--gateway-port', '0'],
    { cwd: ROOT, env: { ...process.env, Logging__Level: 'warn' } },
  );
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 30_000;
  while (!output.includes('Press Ctrl+C to stop')) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`gatehouse serve did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { child, output };
}

/** `gatehouse serve` (the built CLI and console) on a temporary data dir, one per test file. */
export const test = base.extend<object, { gatehouse: ServedGatehouse }>({
  gatehouse: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const dataDir = await mkdtemp(join(tmpdir(), 'gatehouse-e2e-'));
      const { child, output } = await serve(dataDir);
      const match = (pattern: RegExp) => pattern.exec(output)?.[1] ?? '';
      await use({
        dataDir,
        controlPanelUrl: match(/Control Panel:\s+(\S+)/),
        gatewayUrl: match(/Gateway \(Default\):\s+(\S+)/),
        signInUrl: match(/Sign in to the console[^:]*:\s+(\S+)/),
        token: async (roles = 'Operator') => (await run(['token', '--data-dir', dataDir, '--roles', roles])).trim(),
      });
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      await rm(dataDir, { recursive: true, force: true });
    },
    { scope: 'worker' },
  ],
});

export { expect } from '@playwright/test';
