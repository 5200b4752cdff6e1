/**
 * Where Gatehouse's p99 comes from: each variant (a Gatehouse started with its own environment, e.g. monitoring
 * off, or a V8 flag through NODE_OPTIONS) is loaded in turn with wrk on the full and the plain route, beside
 * fastify + @fastify/reply-from, rounds interleaved. Besides req/s, p50, p99 and CPU per request, the serving
 * process reports its event-loop delay histogram, GC pauses by kind and the time its store writes took
 * (bench/lib/tail-probe.ts).
 *
 *   npm run bench:proxy-tail -- [--duration 6 --warmup 2 --connections 50 --rounds 3]
 *                               [--variant LABEL=NAME=VALUE,NAME=VALUE ...]   (repeatable; `main` always runs)
 *                               [--dir LABEL=PATH]                            (another checkout, e.g. a
 *                                                                               worktree of main; repeatable)
 *                               [--route full|plain]                          (both by default)
 *
 * Variables a variant may set (diagnostics): BENCH_NO_MONITORING=1 (no API Monitoring sink at all),
 * BENCH_NO_MONITORING_STORE=1 (the recorder, its ring and metrics kept, the store writes dropped),
 * BENCH_NODE_FLAGS='--max-semi-space-size=64 …' (Node/V8 flags of the Gatehouse process), BENCH_WAL_AUTOCHECKPOINT=N.
 * The probe line also gives the young generation's size (`youngGenerationMB`).
 */
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { startChild, stopChildren, type Started } from './lib/bench-children.js';
import { processCpuSeconds } from './lib/process-cpu.js';
import { requireWrk, runWrk } from './lib/wrk.js';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '6' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '3' },
    variant: { type: 'string', multiple: true, default: [] },
    route: { type: 'string', multiple: true, default: ['full', 'plain'] },
    dir: { type: 'string', multiple: true, default: [] },
  },
});

requireWrk();
const ROUTES: Record<string, string> = { full: '/bench/items/7?x=42', plain: '/plain/items/42' };

/** One JSON line of the probe, read after a SIGUSR2. */
async function probe(child: Started): Promise<Record<string, unknown>> {
  const before = child.lines.length;
  process.kill(child.pid, 'SIGUSR2');
  for (let waited = 0; child.lines.length === before; waited += 10) {
    if (waited > 5000) throw new Error('the probe did not answer');
    await sleep(10);
  }
  return JSON.parse(child.lines[before]!) as Record<string, unknown>;
}

try {
  const upstream = await startChild('bench/lib/proxy-upstream.ts');
  const origin = `http://127.0.0.1:${String(upstream.port)}`;
  const fastify = await startChild('bench/lib/fastify-proxy.ts', [origin]);
  const variants: { label: string; child: Started }[] = [];
  const specs = [
    ...args.dir.map((spec) => ({ spec, dir: spec.split('=', 2)[1] })),
    { spec: 'this=', dir: undefined },
    ...args.variant.map((spec) => ({ spec, dir: undefined })),
  ];
  for (const { spec, dir } of specs) {
    const [label, assignments = ''] = (dir === undefined ? spec : spec.split('=', 1)[0]! + '=').split(
      /=(.*)/s,
      2,
    ) as [string, string?];
    const env: Record<string, string> = { BENCH_TAIL_PROBE: '1' };
    for (const assignment of assignments.split(',').filter(Boolean)) {
      const [name, value = ''] = assignment.split(/=(.*)/s, 2) as [string, string?];
      env[name] = value;
    }
    variants.push({ label, child: await startChild('bench/lib/gatehouse-proxy.ts', [origin], env, dir) });
  }
  const connections = Number(args.connections);
  const measure = async (
    name: string,
    url: string,
    headers: Record<string, string>,
    pid: number,
    afterWarmup?: () => Promise<unknown>,
  ) => {
    await runWrk({ url, headers, connections, seconds: Number(args.warmup) });
    await afterWarmup?.();
    const cpuBefore = processCpuSeconds(pid)!;
    const result = await runWrk({ url, headers, connections, seconds: Number(args.duration) });
    const cpu = ((processCpuSeconds(pid)! - cpuBefore) * 1e6) / result.requests;
    console.log(
      `${name}: ${Math.round(result.requestsPerSecond)} req/s, p50 ${result.p50.toFixed(2)} ms, ` +
        `p99 ${result.p99.toFixed(2)} ms, ${cpu.toFixed(0)} µs CPU/req, load ${loadavg()[0]!.toFixed(1)}` +
        (result.errors + result.non2xx > 0 ? `, ${result.errors + result.non2xx} errors` : ''),
    );
  };
  for (let round = 1; round <= Number(args.rounds); round++) {
    const first = variants[0]!.child;
    const headers = { 'X-API-Key': String(first.apiKey), Origin: String(first.origin) };
    await measure(
      `round ${round} fastify`,
      `http://127.0.0.1:${String(fastify.port)}/items/42`,
      headers,
      fastify.pid,
    );
    for (const route of args.route) {
      for (const { label, child } of variants) {
        const url = `http://127.0.0.1:${String(child.port)}${ROUTES[route]!}`;
        const own = { 'X-API-Key': String(child.apiKey), Origin: String(child.origin) };
        await measure(`round ${round} ${route} ${label}`, url, own, child.pid, () => probe(child));
        console.log(`  ${JSON.stringify(await probe(child))}`);
      }
    }
  }
} finally {
  stopChildren();
}
