/**
 * More than one core, and shared limits, side by side in one run:
 *
 *   npm run bench:cluster [-- --duration 10 --warmup 3 --connections 64 --rounds 2 --propagation-samples 50
 *                             --target node|nginx]
 *
 * The built `gatehouse serve` (out/server) on the benchmark's full-featured route (bench/lib/bench-route.ts: an
 * `#env` target, `#api.QueryParameters.x`, two header entries, CORS, an API-key policy, monitoring), loaded by
 * wrk (one thread) against a keep-alive target in its own process (`--target node`, the default: the Node server of
 * bench:proxy; `--target nginx`: nginx answering the same body itself, which leaves more of the two cores to the
 * gateway — the target's CPU is reported either way):
 *
 * - one process (no --workers), --workers 1, --workers 2 with the primary handing out connections (round robin,
 *   the default) and --workers 2 with the kernel handing them out (NODE_CLUSTER_SCHED_POLICY=none);
 * - the same route throttled (a limit never reached) counted in process and counted in Redis (a redis-server of
 *   its own on a free port).
 *
 * - configuration propagation over three instances on one PostgreSQL (bench/lib/propagation.ts): from a write's
 *   response to the last instance serving the change, p50/p99/max over --propagation-samples (0 skips it).
 *
 * `--variants w1,w2` runs some of them (keys: single, w1, w2, w2-kernel, throttle-process, throttle-redis);
 * `--baseline <checkout>` runs each of them from another built checkout too, interleaved (an A/B in one run);
 * BENCH_SERVE_NODE_ARGS adds Node options to each serve process and its workers (e.g. `--cpu-prof`).
 *
 * Rounds alternate the variants, in reverse order every other round (so a machine that drifts during the run
 * favours none); the tables show each variant's best round, and the ratios (2 workers over 1, Redis over in
 * process) are taken round by round, each from the two variants measured side by side, and reported with their
 * median: a single best round of each is at the mercy of one lucky or unlucky round. wrk shares the two cores with the servers: its CPU
 * time (and the servers', all processes together, per second and per request) is reported beside the throughput,
 * and every process's apart (the serve process or primary, each worker, wrk, the target) in cores and CPU µs per
 * request.
 * The servers' CPU leaves out redis-server's own.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startGatehouse } from '../src-server/app/gatehouse.js';
import { createLogger } from '../src-server/core/logging/logger.js';
import { startTestRedis } from '../test/helpers/redis-server.js';
import { configureBenchRoute } from './lib/bench-route.js';
import { processCpuSeconds } from './lib/process-cpu.js';
import { cpuBetween, processTreeCpu } from './lib/process-tree-cpu.js';
import { startNginxTarget } from './lib/native-proxies.js';
import { measurePropagation } from './lib/propagation.js';
import { TARGET_BODY } from './lib/target-body.js';
import { reportThroughput, selectVariants, type Measured, type Variant } from './lib/cluster-variants.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'out/server/cli.js');
const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    connections: { type: 'string', default: '64' },
    rounds: { type: 'string', default: '2' },
    'propagation-samples': { type: 'string', default: '50' },
    target: { type: 'string', default: 'node' },
    /** Which variants to run (keys, comma-separated): single,w1,w2,w2-kernel,throttle-process,throttle-redis. */
    variants: { type: 'string', default: 'single,w1,w2,w2-kernel,throttle-process,throttle-redis' },
    /** Another checkout (built): each selected variant runs from it too, interleaved, named "… [baseline]". */
    baseline: { type: 'string' },
  },
});
const ORIGIN = 'https://app.example.com';

const children: ChildProcess[] = [];

function startChild(command: string, argv: string[], env: Record<string, string> = {}): ChildProcess {
  const child = spawn(command, argv, {
    cwd: ROOT,
    // Stopped with SIGTERM after each measurement: no readiness grace to wait out.
    env: { ...process.env, Logging__Level: 'warn', Shutdown__ReadinessGraceSeconds: '0', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return child;
}

async function startUpstream(): Promise<{ url: string; pid: number }> {
  if (args.target === 'nginx') {
    const nginx = await startNginxTarget(TARGET_BODY);
    if (typeof nginx === 'string') throw new Error(`--target nginx: ${nginx}`);
    cleanups.push(async () => {
      nginx.child.kill('SIGTERM');
      await Promise.resolve();
    });
    return { url: `http://127.0.0.1:${nginx.port}`, pid: nginx.pid };
  }
  if (args.target !== 'node') throw new Error(`--target must be node or nginx, not ${args.target}`);
  const child = startChild(process.execPath, ['--import', 'tsx', 'bench/lib/proxy-upstream.ts']);
  const line = await firstLine(child);
  return { url: `http://127.0.0.1:${String((JSON.parse(line) as { port: number }).port)}`, pid: child.pid! };
}

function firstLine(child: ChildProcess, matching = /./): Promise<string> {
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`child exited with ${code}`)));
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (matching.test(line)) resolve(line);
    });
  });
}

/** A data dir with the bench route (and a throttle that is never reached, when asked for). */
async function prepare(target: string, throttled: boolean): Promise<{ dataDir: string; apiKey: string }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'gatehouse-bench-cluster-'));
  const gatehouse = await startGatehouse({
    dataDir,
    port: 0,
    gatewayPort: 0,
    env: {},
    logger: createLogger('warn'),
    uiDir: undefined,
  });
  const apiKey = await configureBenchRoute(
    gatehouse,
    target,
    ORIGIN,
    throttled ? { limit: 1_000_000_000, per: 'minute' } : undefined,
  );
  await gatehouse.close();
  return { dataDir, apiKey };
}

/** wrk in a shell that reports its children's CPU time (`times`) after it ends. */
function wrk(url: string, apiKey: string, seconds: number) {
  const command =
    `wrk -t1 -c${args.connections} -d${seconds}s --latency -H 'X-API-Key: ${apiKey}' -H 'Origin: ${ORIGIN}' '${url}'; ` +
    'times';
  const child = spawn('sh', ['-c', command], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise<{ output: string; wrkCpuSeconds: number }>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) {
        reject(new Error(`wrk exited with ${code}:\n${output}`));
        return;
      }
      // `times` prints the shell's own times, then its children's: "0m1.234s 0m0.567s".
      const timesLine = output.trim().split('\n').at(-1) ?? '';
      const seconds = [...timesLine.matchAll(/(\d+)m([\d.]+)s/g)].map(
        (match) => Number(match[1]) * 60 + Number(match[2]),
      );
      resolve({ output, wrkCpuSeconds: (seconds[0] ?? 0) + (seconds[1] ?? 0) });
    });
  });
}

function parseWrk(output: string): Pick<Measured, 'requestsPerSecond' | 'p50' | 'p99' | 'errors'> {
  const number = (pattern: RegExp) => Number(pattern.exec(output)?.[1] ?? 0);
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  return {
    requestsPerSecond: number(/Requests\/sec:\s+([\d.]+)/),
    p50: /\s50%\s+(\S+)/.exec(output)?.[1] ?? '?',
    p99: /\s99%\s+(\S+)/.exec(output)?.[1] ?? '?',
    errors:
      number(/Non-2xx or 3xx responses: (\d+)/) +
      (socketErrors ? socketErrors.slice(1).reduce((sum, value) => sum + Number(value), 0) : 0),
  };
}

async function measure(variant: Variant, apiKey: string, targetPid: number): Promise<Measured> {
  const serve = startChild(
    process.execPath,
    [
      ...(process.env.BENCH_SERVE_NODE_ARGS ? process.env.BENCH_SERVE_NODE_ARGS.split(' ') : []),
      variant.cli ?? CLI,
      'serve',
      '--data-dir',
      variant.dataDir,
      '--port',
      '0',
      '--gateway-port',
      '0',
      '--no-sign-in-link',
      ...variant.args,
    ],
    variant.env,
  );
  let output = '';
  serve.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await firstLine(serve, /Press Ctrl\+C/);
  const gateway = /Gateway \(Default\):\s+(\S+)/.exec(output)?.[1];
  if (!gateway) throw new Error(`no gateway URL in:\n${output}`);
  const url = `${gateway}/bench/items/7?x=42`;
  const probe = await fetch(url, { headers: { 'X-API-Key': apiKey, Origin: ORIGIN } });
  await probe.arrayBuffer();
  if (probe.status !== 200) throw new Error(`${variant.name} answered ${probe.status}`);
  try {
    await wrk(url, apiKey, Number(args.warmup));
    const started = performance.now();
    const cpuBefore = processTreeCpu(serve.pid!);
    const targetBefore = processCpuSeconds(targetPid) ?? 0;
    const run = await wrk(url, apiKey, Number(args.duration));
    const cpuUsed = cpuBetween(cpuBefore, processTreeCpu(serve.pid!));
    const targetAfter = processCpuSeconds(targetPid) ?? 0;
    const wallSeconds = (performance.now() - started) / 1000;
    const [primarySeconds = 0, ...workerSeconds] = [...cpuUsed.values()];
    return {
      ...parseWrk(run.output),
      serverCores: (primarySeconds + workerSeconds.reduce((sum, value) => sum + value, 0)) / wallSeconds,
      primaryCores: primarySeconds / wallSeconds,
      workerCores: workerSeconds.map((value) => value / wallSeconds),
      wrkCores: run.wrkCpuSeconds / wallSeconds,
      targetCores: (targetAfter - targetBefore) / wallSeconds,
    };
  } finally {
    const exited = new Promise((resolve) => serve.once('exit', resolve));
    serve.kill('SIGTERM');
    await exited;
  }
}

const cleanups: (() => Promise<void>)[] = [];
try {
  const target = await startUpstream();
  const plain = await prepare(target.url, false);
  const throttled = await prepare(target.url, true);
  const redis = await startTestRedis();
  cleanups.push(
    () => redis.stop(),
    () => rm(plain.dataDir, { recursive: true, force: true }),
    () => rm(throttled.dataDir, { recursive: true, force: true }),
  );
  const all: (Variant & { apiKey: string })[] = [
    { key: 'single', name: 'one process', dataDir: plain.dataDir, args: [], apiKey: plain.apiKey },
    {
      key: 'w1',
      name: '--workers 1',
      dataDir: plain.dataDir,
      args: ['--workers', '1'],
      apiKey: plain.apiKey,
    },
    {
      key: 'w2',
      name: '--workers 2 (round robin)',
      dataDir: plain.dataDir,
      args: ['--workers', '2'],
      apiKey: plain.apiKey,
    },
    {
      key: 'w2-kernel',
      name: '--workers 2 (kernel: SCHED_NONE)',
      dataDir: plain.dataDir,
      args: ['--workers', '2'],
      env: { NODE_CLUSTER_SCHED_POLICY: 'none' },
      apiKey: plain.apiKey,
    },
    {
      key: 'throttle-process',
      name: 'throttled, in process',
      dataDir: throttled.dataDir,
      args: [],
      apiKey: throttled.apiKey,
    },
    {
      key: 'throttle-redis',
      name: 'throttled, in Redis',
      dataDir: throttled.dataDir,
      args: ['--set', `ConnectionStrings:Redis=${redis.url}`],
      apiKey: throttled.apiKey,
    },
  ];
  const variants = selectVariants(all, args.variants.split(','), args.baseline);
  const best = new Map<string, Measured>();
  const byRound: Map<string, Measured>[] = [];
  const rounds = Number(args.rounds);
  for (let round = 1; round <= rounds; round++) {
    const thisRound = new Map<string, Measured>();
    byRound.push(thisRound);
    for (const variant of round % 2 === 1 ? variants : [...variants].reverse()) {
      const result = await measure(variant, variant.apiKey, target.pid);
      console.log(
        `round ${round} ${variant.name}: ${Math.round(result.requestsPerSecond)} req/s, p50 ${result.p50}, p99 ${result.p99}, ` +
          `server ${result.serverCores.toFixed(2)} cores (primary ${result.primaryCores.toFixed(2)}` +
          (result.workerCores.length > 0
            ? `, workers ${result.workerCores.map((c) => c.toFixed(2)).join('/')}`
            : '') +
          `), wrk ${result.wrkCores.toFixed(2)} cores, target ${result.targetCores.toFixed(2)} cores` +
          (result.errors > 0 ? `, ${result.errors} errors` : ''),
      );
      thisRound.set(variant.name, result);
      const previous = best.get(variant.name);
      if (!previous || result.requestsPerSecond > previous.requestsPerSecond) best.set(variant.name, result);
    }
  }
  const propagationSamples = Number(args['propagation-samples']);
  const propagation =
    propagationSamples > 0
      ? await measurePropagation({
          target: target.url,
          samples: propagationSamples,
          log: (line) => console.log(line),
        })
      : undefined;
  console.log(
    `\nCommand: npm run bench:cluster -- --duration ${args.duration} --warmup ${args.warmup} --connections ${args.connections} --rounds ${args.rounds} --propagation-samples ${propagationSamples} --target ${args.target}` +
      ` (Node ${process.version}, wrk -t1 -c${args.connections}, best of ${args.rounds} rounds)\n`,
  );
  if (rounds > 0) reportThroughput(variants, best, byRound);
  if (propagation) reportPropagation(propagation, propagationSamples);
} finally {
  for (const child of children) child.kill('SIGTERM');
  for (const cleanup of cleanups) await cleanup();
}

function reportPropagation(result: { p50: number; p99: number; max: number }, samples: number): void {
  console.log(
    `Configuration propagation over 3 instances (${samples} writes): p50 ${result.p50.toFixed(0)} ms, ` +
      `p99 ${result.p99.toFixed(0)} ms, max ${result.max.toFixed(0)} ms (target p99 ≤ 1000 ms)`,
  );
}
