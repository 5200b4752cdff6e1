/**
 * Passthrough throughput and latency, side by side in one run:
 *
 *   npm run bench:proxy [-- --duration 15 --warmup 5 --connections 50 --rounds 2]
 *
 * One keep-alive target in its own process, measured directly, through a bare http-proxy-3 server and through
 * a Gatehouse passthrough (each in its own process), with load from autocannon in a separate process. The
 * Gatehouse route renders an `#env` reference and `#api.QueryParameters.x`, applies two header entries, has
 * CORS on, checks an API key and reports every request to API Monitoring. Every client sends the same headers.
 * The three servers run as esbuild bundles (as in the production build; no transpiling on the fly). Rounds
 * alternate the targets; the best round of each counts (the machine's other load only ever makes a run slower).
 * The CPU time the serving process spent per request is read from /proc around each measured run: on a small
 * machine the load generator, the target and the proxy share the cores, and this figure is the steadier one.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { processCpuSeconds } from './lib/process-cpu.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '15' },
    warmup: { type: 'string', default: '5' },
    connections: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '2' },
  },
});

interface Target {
  name: string;
  url: string;
  headers: Record<string, string>;
  /** The process that serves this path (the target itself, or the proxy in front of it). */
  servedBy: number;
}

interface Result {
  requestsPerSecond: number;
  requests: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

const children: ChildProcess[] = [];

const BUNDLE_DIR = 'out/bench';

/** Bundles a child script (and the server code it imports) into `out/bench/<name>.mjs`. */
function bundle(script: string): string {
  const outfile = `${BUNDLE_DIR}/${script.split('/').pop()!.replace(/\.ts$/, '.mjs')}`;
  const result = spawnSync(
    'node_modules/.bin/esbuild',
    [
      script,
      '--bundle',
      '--platform=node',
      '--format=esm',
      '--packages=external',
      '--target=node20',
      `--outfile=${outfile}`,
      '--log-level=warning',
    ],
    { cwd: ROOT, stdio: 'inherit' },
  );
  if (result.status !== 0) throw new Error(`bundling ${script} failed`);
  return outfile;
}

/** A child's ready line, with its pid. */
type Started = Record<string, unknown> & { pid: number };

function startChild(script: string, ...rest: string[]): Promise<Started> {
  const child = spawn(process.execPath, [bundle(script), ...rest], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
    createInterface({ input: child.stdout }).once('line', (line) =>
      resolve({ ...(JSON.parse(line) as Record<string, unknown>), pid: child.pid! }),
    );
  });
}

function autocannon(target: Target, seconds: number): Promise<Result> {
  const headerArgs = Object.entries(target.headers).flatMap(([name, value]) => ['-H', `${name}=${value}`]);
  const child = spawn(
    'node_modules/.bin/autocannon',
    ['-c', args.connections, '-d', String(seconds), '-j', '-n', ...headerArgs, target.url],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) {
        reject(new Error(`autocannon exited with ${code}`));
        return;
      }
      const report = JSON.parse(output) as {
        requests: { average: number; total: number };
        latency: { p50: number; p99: number };
        errors: number;
        non2xx: number;
      };
      resolve({
        requestsPerSecond: report.requests.average,
        requests: report.requests.total,
        p50: report.latency.p50,
        p99: report.latency.p99,
        errors: report.errors,
        non2xx: report.non2xx,
      });
    });
  });
}

async function check(target: Target): Promise<void> {
  const response = await fetch(target.url, { headers: target.headers });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${target.name} answered ${response.status}`);
}

try {
  const upstream = await startChild('bench/lib/proxy-upstream.ts');
  const origin = `http://127.0.0.1:${String(upstream.port)}`;
  const bare = await startChild('bench/lib/bare-proxy.ts', origin);
  const gatehouse = await startChild('bench/lib/gatehouse-proxy.ts', origin);
  // Every target gets the same request headers, so the client side of the load is the same.
  const headers = { 'X-API-Key': String(gatehouse.apiKey), Origin: String(gatehouse.origin) };
  const targets: Target[] = [
    { name: 'direct', url: `${origin}/items/42`, headers, servedBy: upstream.pid },
    {
      name: 'bare http-proxy-3',
      url: `http://127.0.0.1:${String(bare.port)}/items/42`,
      headers,
      servedBy: bare.pid,
    },
    {
      name: 'Gatehouse passthrough',
      url: `http://127.0.0.1:${String(gatehouse.port)}/bench/items/7?x=42`,
      headers,
      servedBy: gatehouse.pid,
    },
  ];
  for (const target of targets) await check(target);

  const duration = Number(args.duration);
  const best = new Map<string, Result>();
  /** Least CPU per request of the serving process over the rounds (µs): other load only ever adds to it. */
  const leastCpu = new Map<string, number>();
  for (let round = 1; round <= Number(args.rounds); round++) {
    for (const target of targets) {
      await autocannon(target, Number(args.warmup));
      const cpuBefore = processCpuSeconds(target.servedBy);
      const result = await autocannon(target, duration);
      const cpuAfter = processCpuSeconds(target.servedBy);
      const cpuMicros =
        cpuBefore === undefined || cpuAfter === undefined || result.requests === 0
          ? undefined
          : ((cpuAfter - cpuBefore) * 1e6) / result.requests;
      console.log(
        `round ${round} ${target.name}: ${Math.round(result.requestsPerSecond)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms` +
          (cpuMicros === undefined ? '' : `, ${cpuMicros.toFixed(0)} µs CPU per request`) +
          (result.errors + result.non2xx > 0 ? `, ${result.errors} errors, ${result.non2xx} non-2xx` : ''),
      );
      const previous = best.get(target.name);
      if (!previous || result.requestsPerSecond > previous.requestsPerSecond) best.set(target.name, result);
      if (cpuMicros !== undefined)
        leastCpu.set(target.name, Math.min(leastCpu.get(target.name) ?? Infinity, cpuMicros));
    }
  }

  const bareResult = best.get('bare http-proxy-3')!;
  const gatehouseResult = best.get('Gatehouse passthrough')!;
  const throughputRatio = gatehouseResult.requestsPerSecond / bareResult.requestsPerSecond;
  const p99Ratio = gatehouseResult.p99 / bareResult.p99;
  console.log(
    `\nCommand: npm run bench:proxy -- --duration ${duration} --warmup ${args.warmup} --connections ${args.connections} --rounds ${args.rounds}` +
      ` (Node ${process.version}, ${args.connections} connections, best of ${args.rounds} rounds)\n`,
  );
  console.log('| path | req/s | p50 (ms) | p99 (ms) | errors | server CPU per request (µs) |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const target of targets) {
    const result = best.get(target.name)!;
    const cpu = leastCpu.get(target.name);
    console.log(
      `| ${target.name} | ${Math.round(result.requestsPerSecond)} | ${result.p50} | ${result.p99} | ${result.errors + result.non2xx} | ${cpu === undefined ? '—' : cpu.toFixed(0)} |`,
    );
  }
  const bareCpu = leastCpu.get('bare http-proxy-3');
  const gatehouseCpu = leastCpu.get('Gatehouse passthrough');
  console.log(
    `\nGatehouse / bare proxy: throughput ${(throughputRatio * 100).toFixed(1)} % (target ≥ 85 %), ` +
      `p99 ${p99Ratio.toFixed(2)}× (target ≤ 1.25×)` +
      (bareCpu && gatehouseCpu ? `, CPU per request ${(gatehouseCpu / bareCpu).toFixed(2)}×` : ''),
  );
} finally {
  for (const child of children) child.kill('SIGTERM');
}
