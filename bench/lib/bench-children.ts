/**
 * Child processes of a benchmark: TypeScript scripts bundled with esbuild into `out/bench/` (as in the production
 * build: no transpiling on the fly), started with Node, each printing one JSON line when ready.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BUNDLE_DIR = 'out/bench';
const children: ChildProcess[] = [];

/** Bundles a child script (and the server code it imports) into `out/bench/<name>.mjs`. */
function bundle(script: string, root: string): string {
  const outfile = `${BUNDLE_DIR}/${script.split('/').pop()!.replace(/\.ts$/, '.mjs')}`;
  esbuild(script, outfile, root);
  bundleWorkers(root);
  return outfile;
}

/**
 * The worker threads the server starts by URL next to its code (as scripts/build-server.mjs builds them), beside
 * the bundles: without them the server falls back to its main thread (API monitoring's writes) or fails.
 */
const WORKER_ENTRIES = ['src-server/core/monitoring/sql/monitoring-write-worker.ts'];

function bundleWorkers(root: string): void {
  for (const entry of WORKER_ENTRIES) {
    if (existsSync(`${root}/${entry}`))
      esbuild(entry, `${BUNDLE_DIR}/${entry.split('/').pop()!.replace(/\.ts$/, '.js')}`, root);
  }
}

/** One ESM bundle for Node, packages left external. */
function esbuild(entry: string, outfile: string, root: string): void {
  const result = spawnSync(
    'node_modules/.bin/esbuild',
    [
      entry,
      '--bundle',
      '--platform=node',
      '--format=esm',
      '--packages=external',
      '--target=node20',
      `--outfile=${outfile}`,
      '--log-level=warning',
    ],
    { cwd: root, stdio: 'inherit' },
  );
  if (result.status !== 0) throw new Error(`bundling ${entry} failed`);
}

/** A child's ready line, with its pid; `lines` gets every later line. */
export type Started = Record<string, unknown> & { pid: number; lines: string[] };

/** `root`: another checkout of Gatehouse (with its own node_modules), to compare two versions side by side. */
export function startChild(
  script: string,
  args: string[] = [],
  env: Record<string, string> = {},
  root = ROOT,
): Promise<Started> {
  // BENCH_NODE_FLAGS: Node/V8 flags of the child (space-separated), e.g. a young-generation size to compare.
  const flags = (env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...flags, bundle(script, root), ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
    const lines: string[] = [];
    let ready = false;
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (ready) lines.push(line);
      else {
        ready = true;
        resolve({ ...(JSON.parse(line) as Record<string, unknown>), pid: child.pid!, lines });
      }
    });
  });
}

/** Every child started here, and any other process the benchmark registers. */
export function adoptChild(child: ChildProcess): void {
  children.push(child);
}

export function stopChildren(): void {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
}

/** Resident set size of a process in bytes, from /proc (undefined where there is none). */
export function processRss(pid: number): number | undefined {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const match = /VmRSS:\s+(\d+) kB/.exec(status);
  return match ? Number(match[1]) * 1024 : undefined;
}
