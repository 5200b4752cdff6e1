/**
 * The candidates of bench:audit: Gatehouse (`gatehouse audit import`, then `gatehouse serve`) on either engine,
 * and the plain tables behind ~30-line HTTP servers (plain-sqlite-audit.ts, plain-postgres-audit.ts). Each
 * imports an NDJSON file and starts cold as a child process; the start counts until the first 200 from
 * GET /api/v1/audit-log.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { CLI, FULL_AUDIT_ENV, ROOT, gatehouseToken } from './gatehouse-serve.js';

export interface RunningCandidate {
  url: string;
  pid: number;
  coldStartMs: number;
  headers: Record<string, string>;
  stop: () => Promise<void>;
}

export interface AuditCandidate {
  name: string;
  /** Imports the NDJSON file; returns the seconds the import took. */
  importSeconds: (file: string) => number;
  start: () => Promise<RunningCandidate>;
}

export function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
}

/** Spawns a server, then polls the list endpoint until it answers 200: the time to the first answer. */
export async function startCold(
  command: string[],
  env: Record<string, string>,
  urlOf: (output: string) => string | undefined,
  headers: Record<string, string>,
): Promise<RunningCandidate> {
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, command, { env: { ...process.env, ...env } });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let url: string | undefined;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited:\n${output}`);
    url ??= urlOf(output);
    if (url) {
      const response = await fetch(`${url}/api/v1/audit-log?PageSize=1`, { headers }).catch(() => undefined);
      if (response?.status === 200) {
        await response.arrayBuffer();
        break;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return {
    url,
    pid: child.pid!,
    coldStartMs: performance.now() - started,
    headers,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

/** `cli`: another build's out/server/cli.js (a baseline), this worktree's by default. */
export function gatehouseCandidate(
  name: string,
  dataDir: string,
  env: Record<string, string>,
  cli = CLI,
): AuditCandidate {
  let token: string | undefined;
  return {
    name,
    importSeconds(file) {
      const started = performance.now();
      const result = spawnSync(process.execPath, [cli, 'audit', 'import', file, '--data-dir', dataDir], {
        encoding: 'utf8',
        env: { ...process.env, ...env },
      });
      if (result.status !== 0) throw new Error(result.stderr);
      return (performance.now() - started) / 1000;
    },
    async start() {
      token ??= gatehouseToken(dataDir, 'Auditor', '2h', env, cli);
      return startCold(
        [cli, 'serve', '--data-dir', dataDir, '--port', '0', '--gateway-port', '0', '--no-sign-in-link'],
        { Logging__Level: 'warn', ...FULL_AUDIT_ENV, ...env },
        (output) => /Control Panel:\s+(\S+)/.exec(output)?.[1],
        { Authorization: `Bearer ${token}` },
      );
    },
  };
}

/** Compiled once to plain JS, so its start pays no TypeScript transform (as Gatehouse's built CLI doesn't). */
function compilePeer(source: string, outDir: string): string {
  const script = join(outDir, source.replace(/\.ts$/, '.mjs'));
  buildSync({
    entryPoints: [join(ROOT, 'bench/lib', source)],
    outfile: script,
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    absWorkingDir: ROOT,
  });
  return script;
}

function plainCandidate(name: string, script: string, target: string): AuditCandidate {
  return {
    name,
    importSeconds(file) {
      // Timed around the process, as Gatehouse's import is (process start included for both).
      const started = performance.now();
      const result = spawnSync(process.execPath, [script, 'import', file, target], {
        encoding: 'utf8',
        cwd: ROOT,
      });
      if (result.status !== 0) throw new Error(result.stderr);
      return (performance.now() - started) / 1000;
    },
    start: () => startCold([script, 'serve', target], {}, (output) => /(http:\S+)/.exec(output)?.[1], {}),
  };
}

export function plainSqliteCandidate(dir: string): AuditCandidate {
  return plainCandidate(
    'plain SQLite table',
    compilePeer('plain-sqlite-audit.ts', dir),
    join(dir, 'plain.db'),
  );
}

export function plainPostgresCandidate(dir: string, url: string): AuditCandidate {
  return plainCandidate('plain PostgreSQL table', compilePeer('plain-postgres-audit.ts', dir), url);
}
