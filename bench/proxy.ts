/**
 * Passthrough throughput and latency against real peers, side by side in one run:
 *
 *   npm run bench:proxy [-- --duration 15 --warmup 5 --connections 50 --rounds 2]
 *                       [--compare-env NAME=VALUE]   (adds a Gatehouse started with that environment)
 *                       [--compare-dir PATH]         (adds the Gatehouse of another checkout, e.g. a git worktree)
 *                       [--only TEXT]                (only candidates whose name contains TEXT, repeatable;
 *                                                     fastify + @fastify/reply-from, the reference, always runs)
 *                       [--in-process]               (Gatehouse started in the benchmark's child process, not
 *                                                     through `gatehouse serve`: for the BENCH_* diagnostics)
 *
 * One keep-alive target in its own process, reached directly and through: a bare http-proxy-3 server, fastify +
 * @fastify/reply-from, nginx (one worker) and haproxy (one thread) when installed, and Gatehouse on two routes:
 * the full-featured one (`#env` + query target, two header entries, CORS, API key, monitoring) and a plain one
 * (literal target, public). Gatehouse runs as users run it, `gatehouse serve` (the checkout's build: run
 * `npm run build:server` first), with serve's heap policy; `--in-process` starts it in a child of the benchmark
 * instead (bench/lib/gatehouse-proxy.ts), where the BENCH_* diagnostics of that script apply. Load comes from wrk (one thread, keep-alive). Every client sends the same headers.
 * Rounds alternate the candidates, in reverse order every other round (so a machine that drifts during the run favours
 * none); the best round of each counts (the machine's other load only ever makes a run slower), and beside it the
 * median of the rounds and each Gatehouse's ratios to fastify taken round by round (the two measured minutes apart,
 * not each at its luckiest): one lucky round of one candidate decides a best-of comparison. The CPU time the serving process spent per request is read from /proc around each measured run: on a
 * small machine the load generator, the target and the proxy share the cores, and this figure is the steadier one.
 * It is also printed by thread (from each task of /proc/<pid>/task): the main thread, the busiest other one (Gatehouse's API
 * monitoring writer thread) and the rest (V8's and libuv's helpers).
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { startChild, stopChildren, adoptChild, type Started } from './lib/bench-children.js';
import { startHaproxy, startNginx, type NativeProxy } from './lib/native-proxies.js';
import { processCpuSeconds, threadCpuSeconds } from './lib/process-cpu.js';
import { median } from './lib/stats.js';
import { requireWrk, runWrk, type WrkResult } from './lib/wrk.js';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '15' },
    warmup: { type: 'string', default: '5' },
    connections: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '2' },
    'compare-env': { type: 'string', multiple: true, default: [] },
    'compare-dir': { type: 'string', multiple: true, default: [] },
    only: { type: 'string', multiple: true, default: [] },
    'in-process': { type: 'boolean', default: false },
  },
});

interface Candidate {
  name: string;
  url: string;
  /** The process that serves this path (the target itself, or the proxy in front of it). */
  servedBy: number;
}

const FULL = 'Gatehouse, full route';
const PLAIN = 'Gatehouse, plain route';
const FASTIFY = 'fastify + @fastify/reply-from';
const GATEHOUSE_SCRIPT = args['in-process']
  ? 'bench/lib/gatehouse-proxy.ts'
  : 'bench/lib/gatehouse-served-proxy.ts';
/** The process that serves a Gatehouse child's gateway: `gatehouse serve`, or the child itself. */
const gatewayPid = (child: Started) => Number(child.servedPid ?? child.pid);

requireWrk();
const loadAtStart = loadavg()[0]!;
try {
  const upstream = await startChild('bench/lib/proxy-upstream.ts');
  const origin = `http://127.0.0.1:${String(upstream.port)}`;
  const local = (port: unknown, path: string) => `http://127.0.0.1:${String(port)}${path}`;
  const bare = await startChild('bench/lib/bare-proxy.ts', [origin]);
  const fastify = await startChild('bench/lib/fastify-proxy.ts', [origin]);
  const gatehouse = await startChild(GATEHOUSE_SCRIPT, [origin]);
  // Every candidate gets the same request headers, so the client side of the load is the same.
  const headers = { 'X-API-Key': String(gatehouse.apiKey), Origin: String(gatehouse.origin) };
  /** Each Gatehouse has a key of its own: the full-featured route of a variant takes only that one. */
  const variantKeys = new Map<string, string>();
  const candidates: Candidate[] = [
    { name: 'direct to the target', url: `${origin}/items/42`, servedBy: upstream.pid },
    { name: 'bare http-proxy-3', url: local(bare.port, '/items/42'), servedBy: bare.pid },
    { name: FASTIFY, url: local(fastify.port, '/items/42'), servedBy: fastify.pid },
  ];
  const notes: string[] = [];
  for (const start of [startNginx, startHaproxy]) {
    const started: NativeProxy | string = await start(Number(upstream.port));
    if (typeof started === 'string') notes.push(started);
    else {
      adoptChild(started.child);
      candidates.push({ name: started.name, url: local(started.port, '/items/42'), servedBy: started.pid });
    }
  }
  candidates.push(
    { name: FULL, url: local(gatehouse.port, '/bench/items/7?x=42'), servedBy: gatewayPid(gatehouse) },
    { name: PLAIN, url: local(gatehouse.port, '/plain/items/42'), servedBy: gatewayPid(gatehouse) },
  );
  for (const assignment of args['compare-env']) {
    const [name, value = ''] = assignment.split(/=(.*)/s, 2) as [string, string?];
    const variant = await startChild(GATEHOUSE_SCRIPT, [origin], { [name]: value });
    const label = `${name}=${value}`;
    const keyed = `${FULL} (${label})`;
    variantKeys.set(keyed, String(variant.apiKey));
    candidates.push(
      { name: keyed, url: local(variant.port, '/bench/items/7?x=42'), servedBy: gatewayPid(variant) },
      {
        name: `${PLAIN} (${label})`,
        url: local(variant.port, '/plain/items/42'),
        servedBy: gatewayPid(variant),
      },
    );
  }
  for (const dir of args['compare-dir']) {
    const variant = await startChild(GATEHOUSE_SCRIPT, [origin], {}, dir);
    const label = dir.replace(/\/+$/, '').split('/').pop()!;
    const keyed = `${FULL} (${label})`;
    variantKeys.set(keyed, String(variant.apiKey));
    candidates.push(
      { name: keyed, url: local(variant.port, '/bench/items/7?x=42'), servedBy: gatewayPid(variant) },
      {
        name: `${PLAIN} (${label})`,
        url: local(variant.port, '/plain/items/42'),
        servedBy: gatewayPid(variant),
      },
    );
  }
  const headersOf = (candidate: Candidate) => ({
    ...headers,
    'X-API-Key': variantKeys.get(candidate.name) ?? headers['X-API-Key'],
  });
  if (args.only.length > 0) {
    const wanted = args.only.map((text) => text.toLowerCase());
    const kept = candidates.filter(
      ({ name }) => name === FASTIFY || wanted.some((text) => name.toLowerCase().includes(text)),
    );
    candidates.splice(0, candidates.length, ...kept);
  }
  for (const candidate of candidates) await check(candidate, headersOf(candidate));

  const duration = Number(args.duration);
  const connections = Number(args.connections);
  const best = new Map<string, WrkResult>();
  /** Least CPU per request of the serving process over the rounds (µs): other load only ever adds to it. */
  const leastCpu = new Map<string, number>();
  /** Each round's throughput and CPU per request, by candidate. */
  const byRound: Map<string, { requestsPerSecond: number; cpuMicros: number | undefined }>[] = [];
  for (let round = 1; round <= Number(args.rounds); round++) {
    const measured = new Map<string, { requestsPerSecond: number; cpuMicros: number | undefined }>();
    byRound.push(measured);
    for (const candidate of round % 2 === 0 ? [...candidates].reverse() : candidates) {
      const load = { url: candidate.url, headers: headersOf(candidate), connections };
      await runWrk({ ...load, seconds: Number(args.warmup) });
      const cpuBefore = processCpuSeconds(candidate.servedBy);
      const threadsBefore = threadCpuSeconds(candidate.servedBy);
      const result = await runWrk({ ...load, seconds: duration });
      const cpuAfter = processCpuSeconds(candidate.servedBy);
      const threads = threadsPerRequest(candidate.servedBy, threadsBefore, result.requests);
      const cpuMicros =
        cpuBefore === undefined || cpuAfter === undefined || result.requests === 0
          ? undefined
          : ((cpuAfter - cpuBefore) * 1e6) / result.requests;
      console.log(
        `round ${round} ${candidate.name}: ${Math.round(result.requestsPerSecond)} req/s, ` +
          `p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms` +
          (cpuMicros === undefined ? '' : `, ${cpuMicros.toFixed(0)} µs CPU per request`) +
          (threads === undefined ? '' : ` (${threads})`) +
          (result.errors + result.non2xx > 0 ? `, ${result.errors} errors, ${result.non2xx} non-2xx` : ''),
      );
      measured.set(candidate.name, { requestsPerSecond: result.requestsPerSecond, cpuMicros });
      const previous = best.get(candidate.name);
      if (!previous || result.requestsPerSecond > previous.requestsPerSecond)
        best.set(candidate.name, result);
      if (cpuMicros !== undefined)
        leastCpu.set(candidate.name, Math.min(leastCpu.get(candidate.name) ?? Infinity, cpuMicros));
    }
  }

  console.log(
    `\nCommand: npm run bench:proxy -- --duration ${duration} --warmup ${args.warmup} --connections ${connections} --rounds ${args.rounds}` +
      args['compare-env'].map((assignment) => ` --compare-env ${assignment}`).join('') +
      args['compare-dir'].map((dir) => ` --compare-dir ${dir}`).join('') +
      args.only.map((text) => ` --only '${text}'`).join('') +
      (args['in-process'] ? ' --in-process' : '') +
      ` (Node ${process.version}, Gatehouse ${args['in-process'] ? 'in a child process' : 'through gatehouse serve'}, wrk 1 thread, ${connections} connections, best of ${args.rounds} rounds;` +
      ` load average (1 min) ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end)\n`,
  );
  console.log(
    '| candidate | req/s | p50 ms | p99 ms | errors | CPU µs per request | req/s, median of rounds | CPU µs, median of rounds |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  const roundsOf = (name: string) => byRound.flatMap((round) => round.get(name) ?? []);
  const medianCpuOf = (name: string) => {
    const cpus = roundsOf(name).flatMap(({ cpuMicros }) => cpuMicros ?? []);
    return cpus.length === 0 ? '—' : median(cpus).toFixed(0);
  };
  for (const candidate of candidates) {
    const result = best.get(candidate.name)!;
    const cpu = leastCpu.get(candidate.name);
    console.log(
      `| ${candidate.name} | ${Math.round(result.requestsPerSecond)} | ${result.p50.toFixed(2)} | ${result.p99.toFixed(2)} | ` +
        `${result.errors + result.non2xx} | ${cpu === undefined ? '—' : cpu.toFixed(0)} | ` +
        `${Math.round(median(roundsOf(candidate.name).map(({ requestsPerSecond }) => requestsPerSecond)))} | ${medianCpuOf(candidate.name)} |`,
    );
  }
  for (const note of notes) console.log(`\nNote: ${note}.`);

  const peer = best.get(FASTIFY)!;
  const peerCpu = leastCpu.get(FASTIFY);
  for (const name of best.keys()) {
    if (!name.startsWith('Gatehouse')) continue;
    const result = best.get(name)!;
    const cpu = leastCpu.get(name);
    const plain = name.startsWith(PLAIN);
    console.log(
      `\n${name} / ${FASTIFY}: throughput ${(result.requestsPerSecond / peer.requestsPerSecond).toFixed(2)}× ` +
        `(target ≥ ${plain ? '1.2' : '1.0'}×)` +
        (plain ? '' : `, p99 ${(result.p99 / peer.p99).toFixed(2)}× (target ≤ 1.25×)`) +
        (cpu && peerCpu
          ? `, CPU per request ${(cpu / peerCpu).toFixed(2)}×${plain ? '' : ' (target ≤ 1.0×)'}`
          : '') +
        `; round by round: throughput ${describePaired(byRound, name, FASTIFY, ({ requestsPerSecond }) => requestsPerSecond)}, ` +
        `CPU per request ${describePaired(byRound, name, FASTIFY, ({ cpuMicros }) => cpuMicros)}`,
    );
  }
} finally {
  stopChildren();
}

/** `over`'s figure divided by `under`'s in each round that measured both: their median, and each round's. */
function describePaired<T>(
  byRound: readonly ReadonlyMap<string, T>[],
  over: string,
  under: string,
  figure: (measured: T) => number | undefined,
): string {
  const ratios = byRound.flatMap((round) => {
    const top = round.get(over);
    const bottom = round.get(under);
    const a = top === undefined ? undefined : figure(top);
    const b = bottom === undefined ? undefined : figure(bottom);
    return a !== undefined && b !== undefined && b > 0 ? [a / b] : [];
  });
  if (ratios.length === 0) return 'not measured';
  return `median ${median(ratios).toFixed(2)}× (${ratios.map((ratio) => ratio.toFixed(2)).join(', ')})`;
}

async function check(candidate: Candidate, headers: Record<string, string>): Promise<void> {
  const response = await fetch(candidate.url, { headers });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${candidate.name} answered ${response.status}`);
}

/**
 * CPU per request by thread, in µs, for the run that just ended: the main thread, the busiest other one (in
 * Gatehouse, the monitoring writer thread) and all the others together (V8's helpers, libuv's pool).
 */
function threadsPerRequest(pid: number, before: Map<number, number>, requests: number): string | undefined {
  const after = threadCpuSeconds(pid);
  if (after.size === 0 || requests === 0) return undefined;
  const micros = (seconds: number) => ((seconds * 1e6) / requests).toFixed(1);
  const spent = (tid: number) => (after.get(tid) ?? 0) - (before.get(tid) ?? 0);
  const others = [...after.keys()]
    .filter((tid) => tid !== pid)
    .map(spent)
    .sort((a, b) => b - a);
  const rest = others.slice(1).reduce((sum, seconds) => sum + seconds, 0);
  return `main ${micros(spent(pid))}, busiest other ${micros(others[0] ?? 0)}, rest ${micros(rest)} µs`;
}
