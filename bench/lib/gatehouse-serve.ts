/**
 * `gatehouse serve` (the built CLI in out/server) as a child process of a benchmark, and `gatehouse token` for its
 * data dir.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const CLI = join(ROOT, 'out/server/cli.js');

/**
 * The audit log route on, and retention that keeps every generated entry (it would otherwise trim agent events to
 * 1,000 per agent group and drop entries older than the retention period).
 */
export const FULL_AUDIT_ENV: Readonly<Record<string, string>> = {
  Flags__EnableServiceApiAuditLogRoute: 'true',
  Audit__AgentEventWindow: '1000000',
  Audit__RetentionDays: '3650',
};

export interface ServeOptions {
  /** Extra environment (settings as `Section__Key`). */
  env?: Record<string, string>;
  /** Extra arguments of `gatehouse serve`, e.g. `['--ui-dir', dir]`. */
  args?: string[];
  /** Another build's CLI (a baseline worktree's out/server/cli.js); this one's by default. */
  cli?: string;
  /** Node's own options, e.g. `['--cpu-prof', '--cpu-prof-dir', dir]`. */
  nodeArgs?: string[];
}

export interface ServedGatehouse {
  /** The Control Panel's base URL. */
  url: string;
  /** The Default agent group's gateway. */
  gatewayUrl: string;
  pid: number;
  /** From spawning to the "Press Ctrl+C" line. */
  coldStartMs: number;
  stop: () => Promise<void>;
}

export async function startGatehouseServe(
  dataDir: string,
  options: ServeOptions = {},
): Promise<ServedGatehouse> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      ...(options.nodeArgs ?? []),
      options.cli ?? CLI,
      'serve',
      '--data-dir',
      dataDir,
      '--port',
      '0',
      '--gateway-port',
      '0',
      '--no-sign-in-link',
      ...(options.args ?? []),
    ],
    // Stopped with SIGTERM: no readiness grace to wait out (no load balancer here).
    { env: { ...process.env, Logging__Level: 'warn', Shutdown__ReadinessGraceSeconds: '0', ...options.env } },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  while (!output.includes('Press Ctrl+C')) {
    if (child.exitCode !== null) throw new Error(`gatehouse serve failed:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const coldStartMs = performance.now() - started;
  const url = /Control Panel:\s+(\S+)/.exec(output)?.[1];
  if (!url) throw new Error(`gatehouse serve printed no Control Panel URL:\n${output}`);
  const gatewayUrl = /Gateway \(Default\):\s+(\S+)/.exec(output)?.[1] ?? '';
  return {
    url,
    gatewayUrl,
    pid: child.pid!,
    coldStartMs,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

/** A bearer token from `gatehouse token --roles <roles>` for the data dir. */
export function gatehouseToken(
  dataDir: string,
  roles: string,
  ttl = '2h',
  env: Record<string, string> = {},
  cli = CLI,
): string {
  const result = spawnSync(
    process.execPath,
    [cli, 'token', '--data-dir', dataDir, '--roles', roles, '--ttl', ttl],
    { encoding: 'utf8', env: { ...process.env, ...env } },
  );
  if (result.status !== 0) throw new Error(`gatehouse token failed: ${result.stderr}`);
  return result.stdout.trim();
}
