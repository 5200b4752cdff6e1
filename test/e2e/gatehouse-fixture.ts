import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test as base } from '@playwright/test';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface ServedGatehouse {
  dataDir: string;
  controlPanelUrl: string;
  gatewayUrl: string;
  /** The one-time sign-in link `gatehouse serve` printed (Operator); it works once. */
  signInUrl: string;
  /** A bearer token printed by `gatehouse token` (for the test's own API calls, or to paste into the console). */
  token: (roles?: string, options?: { user?: string; ttl?: string }) => Promise<string>;
}

export interface StartOptions {
  /** `--set Key=Value` for this run, e.g. `{ 'Flags:EnableServiceApiAuditLogRoute': 'true' }`. */
  settings?: Record<string, string>;
  /**
   * Imported with `gatehouse audit import` into the data dir before `serve` starts (into a tenant's trail): an
   * export file, or entries the fixture writes to an NDJSON file of its own.
   */
  auditImports?: (string | { file: string; tenant: string } | { entries: object[]; tenant?: string })[];
  /** Environment of `serve` and of the CLI runs (a team's database, key file and instance name). */
  env?: Record<string, string>;
}

export interface StartedGatehouse extends ServedGatehouse {
  stop: () => Promise<void>;
}

function run(args: string[], env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'out/server/cli.js'), ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('close', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`gatehouse ${args[0]} failed: ${err}`)),
    );
  });
}

async function serve(
  dataDir: string,
  extraArgs: string[],
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; output: string }> {
  const child = spawn(
    process.execPath,
    [
      join(ROOT, 'out/server/cli.js'),
      'serve',
      '--data-dir',
      dataDir,
      '--port',
      '0',
      '--gateway-port',
      '0',
      ...extraArgs,
    ],
    // Stopped with SIGTERM: no readiness grace, so a test's teardown is not 5 s longer.
    {
      cwd: ROOT,
      env: { ...process.env, Logging__Level: 'warn', Shutdown__ReadinessGraceSeconds: '0', ...env },
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 30_000;
  while (!output.includes('Press Ctrl+C to stop')) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`gatehouse serve did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { child, output };
}

type AuditImport = NonNullable<StartOptions['auditImports']>[number];

async function importAudit(dataDir: string, item: AuditImport, env?: Record<string, string>): Promise<void> {
  const tenant = typeof item === 'string' ? undefined : item.tenant;
  const tenantArgs = tenant ? ['--tenant', tenant] : [];
  if (typeof item === 'string' || 'file' in item) {
    const file = typeof item === 'string' ? item : item.file;
    await run(['audit', 'import', file, ...tenantArgs, '--data-dir', dataDir], env);
    return;
  }
  const staging = await mkdtemp(join(tmpdir(), 'gatehouse-e2e-import-'));
  try {
    const file = join(staging, 'export.ndjson');
    await writeFile(file, item.entries.map((entry) => JSON.stringify(entry)).join('\n') + '\n');
    await run(['audit', 'import', file, ...tenantArgs, '--data-dir', dataDir], env);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/**
 * `gatehouse serve` (the built CLI and console) on a fresh temporary data dir. Test files that need a state of
 * their own (a flag that starts off, imported entries) start one in `beforeAll` and stop it in `afterAll`.
 */
export async function startGatehouse(options: StartOptions = {}): Promise<StartedGatehouse> {
  const dataDir = await mkdtemp(join(tmpdir(), 'gatehouse-e2e-'));
  for (const item of options.auditImports ?? []) await importAudit(dataDir, item, options.env);
  const setArgs = Object.entries(options.settings ?? {}).flatMap(([key, value]) => [
    '--set',
    `${key}=${value}`,
  ]);
  // GATEHOUSE_E2E_OUT_DIR lets a checkout run e2e against its own build (`electron-vite build --outDir DIR`).
  const outDir = process.env.GATEHOUSE_E2E_OUT_DIR;
  const uiArgs = outDir ? ['--ui-dir', join(outDir, 'renderer')] : [];
  const { child, output } = await serve(dataDir, [...setArgs, ...uiArgs], options.env);
  const match = (pattern: RegExp) => pattern.exec(output)?.[1] ?? '';
  return {
    dataDir,
    controlPanelUrl: match(/Control Panel:\s+(\S+)/),
    gatewayUrl: match(/Gateway \(Default\):\s+(\S+)/),
    signInUrl: match(/Sign in to the console[^:]*:\s+(\S+)/),
    token: async (roles = 'Operator', { user, ttl }: { user?: string; ttl?: string } = {}) =>
      (
        await run(
          [
            'token',
            '--data-dir',
            dataDir,
            '--roles',
            roles,
            ...(user ? ['--user', user] : []),
            ...(ttl ? ['--ttl', ttl] : []),
          ],
          options.env,
        )
      ).trim(),
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** One `gatehouse serve` shared by the tests of a worker (its sign-in link works once). */
export const test = base.extend<object, { gatehouse: ServedGatehouse }>({
  gatehouse: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const started = await startGatehouse();
      await use(started);
      await started.stop();
    },
    { scope: 'worker' },
  ],
});

export { expect } from '@playwright/test';
