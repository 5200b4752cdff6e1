/**
 * Where a list shape's slow requests come from: each request of bench:audit's query shapes, one at a time, with
 * what the server did during it — its main thread's CPU and its wait for a CPU (the kernel's schedstat, in ns, so
 * a busy machine's share shows apart from the server's own work), the CPU of its other threads, and the V8
 * collections it ran (`--trace-gc`). Then the slowest requests of each shape side by side with the median ones, and
 * each query's own median (a tail that is one slow query, not chance). `--plain`: the plain-table peer that
 * bench:audit compiled into bench/.data/audit, measured alike.
 *
 *   tsx bench/audit-tail-probe.ts [--shape actionName|userName] [--requests 200] [--data-dir DIR] [--cli CLI]
 *       [--env Section__Key=value]... [--node-arg ...]... [--plain]
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, readdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { shapesOfTrail } from './lib/audit-query-shapes.js';
import { CLI, FULL_AUDIT_ENV, ROOT, gatehouseToken } from './lib/gatehouse-serve.js';
import { percentiles } from './lib/stats.js';
import { timedGet } from './lib/timed-get.js';

const { values } = parseArgs({
  options: {
    shape: { type: 'string', default: 'actionName|userName|all filters|console|two words' },
    requests: { type: 'string', default: '200' },
    'data-dir': { type: 'string', default: join(ROOT, 'bench/.data/audit/sqlite-data') },
    cli: { type: 'string', default: CLI },
    env: { type: 'string', multiple: true, default: [] },
    'node-arg': { type: 'string', multiple: true, default: [] },
    /** The plain-table peer instead (bench/.data/audit/plain-sqlite-audit.mjs, as bench:audit compiled it). */
    plain: { type: 'boolean', default: false },
  },
});
/** This client's own collections (start, duration in ms): a Node client on a busy machine has a tail too. */
const clientGcs: { start: number; duration: number }[] = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) clientGcs.push({ start: entry.startTime, duration: entry.duration });
}).observe({ entryTypes: ['gc'] });
const REQUESTS = Number(values.requests);
const endMs = (
  JSON.parse(readFileSync(join(ROOT, 'bench/.data/audit/dataset.json'), 'utf8')) as { endMs: number }
).endMs;
const env = {
  ...FULL_AUDIT_ENV,
  ...Object.fromEntries(values.env.map((pair) => pair.split('=', 2) as [string, string])),
};

/** The main thread's voluntary context switches: how often it slept (waited for something) so far. */
function sleeps(pid: number): number {
  return Number(/voluntary_ctxt_switches:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
}

/** [on CPU, waiting for a CPU] in ns, of one thread. */
function schedstat(pid: number, tid: number): [number, number] {
  const [run, wait] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ');
  return [Number(run), Number(wait)];
}

/** CPU ns of each other thread, by name. */
function otherThreadsNs(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    if (Number(tid) === pid) continue;
    try {
      const name = `${readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim()}#${Number(tid) - pid}`;
      byName.set(name, (byName.get(name) ?? 0) + schedstat(pid, Number(tid))[0]);
    } catch {
      // The thread ended meanwhile.
    }
  }
  return byName;
}

function delta(after: Map<string, number>, before: Map<string, number>): Map<string, number> {
  const out = new Map<string, number>();
  for (const [name, ns] of after) {
    const ms = (ns - (before.get(name) ?? 0)) / 1e6;
    if (ms > 0.05) out.set(name, ms);
  }
  return out;
}

const PLAIN = values.plain;
const token = PLAIN ? '' : gatehouseToken(values['data-dir'], 'Auditor', '2h', env, values.cli);
const child = spawn(
  process.execPath,
  PLAIN
    ? [
        '--trace-gc',
        ...values['node-arg'],
        join(ROOT, 'bench/.data/audit/plain-sqlite-audit.mjs'),
        'serve',
        join(ROOT, 'bench/.data/audit/plain.db'),
      ]
    : [
        '--trace-gc',
        ...values['node-arg'],
        values.cli,
        'serve',
        '--data-dir',
        values['data-dir'],
        '--port',
        '0',
        '--gateway-port',
        '0',
        '--no-sign-in-link',
      ],
  { env: { ...process.env, Logging__Level: 'warn', Shutdown__ReadinessGraceSeconds: '0', ...env } },
);
let output = '';
child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
while (!(PLAIN ? output.includes('http://') : output.includes('Press Ctrl+C'))) {
  if (child.exitCode !== null) throw new Error(`serve failed:\n${output}`);
  await new Promise((resolve) => setTimeout(resolve, 5));
}
const url = PLAIN ? /http:\/\/\S+/.exec(output)![0] : /Control Panel:\s+(\S+)/.exec(output)![1]!;
const pid = child.pid!;
const headers = { Authorization: `Bearer ${token}` };
// The integrity check and the start's own work done.
await new Promise((resolve) => setTimeout(resolve, 8000));

interface Sample {
  i: number;
  wall: number;
  slept: number;
  mainCpu: number;
  mainWait: number;
  others: Map<string, number>;
  gc: string[];
  /** This client's GC pauses during the request, ms. */
  clientGc: number;
}

try {
  const shapes = await shapesOfTrail(url, headers, endMs);
  console.log(`load ${loadavg()[0]!.toFixed(1)}`);
  const wanted = values.shape.split('|');
  for (const shape of shapes) {
    if (!wanted.some((part) => shape.name.includes(part))) continue;
    if (PLAIN && shape.gatehouseOnly) continue;
    const samples: Sample[] = [];
    for (let i = 0; i < REQUESTS + 20; i++) {
      const gcFrom = output.length;
      const [cpu0, wait0] = schedstat(pid, pid);
      const sleeps0 = sleeps(pid);
      const others0 = otherThreadsNs(pid);
      const started = performance.now();
      const response = await timedGet(
        `${url}/api/v1/audit-log${shape.path ?? ''}?${shape.query(i)}`,
        headers,
      );
      const ended = performance.now();
      const wall = response.ms;
      const [cpu1, wait1] = schedstat(pid, pid);
      const slept = sleeps(pid) - sleeps0;
      const others = delta(otherThreadsNs(pid), others0);
      if (response.status !== 200) throw new Error(`${shape.name}: ${response.status}`);
      if (i < 20) continue;
      const gc = output
        .slice(gcFrom)
        .split('\n')
        .filter((line) => line.includes(' ms: '))
        .map((line) => line.replace(/^\[[^\]]*\]\s*/, '').slice(0, 90));
      samples.push({
        i,
        wall,
        slept,
        mainCpu: (cpu1 - cpu0) / 1e6,
        mainWait: (wait1 - wait0) / 1e6,
        others,
        gc,
        clientGc: 0,
      });
      // The observer hears of a collection a little later: counted once the next request has been sent.
      const last = samples.at(-1)!;
      setImmediate(() => {
        last.clientGc = clientGcs
          .filter((g) => g.start < ended && g.start + g.duration > started)
          .reduce((sum, g) => sum + g.duration, 0);
      });
    }
    const { p50, p95 } = percentiles(samples.map((s) => s.wall));
    const cpu = percentiles(samples.map((s) => s.mainCpu));
    const withGc = samples.filter((s) => s.gc.length > 0);
    console.log(
      `\n## ${shape.name}: wall p50 ${p50.toFixed(2)} p95 ${p95.toFixed(2)}; main CPU p50 ${cpu.p50.toFixed(2)} p95 ${cpu.p95.toFixed(2)}; ${withGc.length} of ${samples.length} requests ran a GC; main thread slept ${percentiles(samples.map((s) => s.slept)).p50} times per request (median), max ${Math.max(...samples.map((s) => s.slept))} (load ${loadavg()[0]!.toFixed(1)})`,
    );
    const pauseOf = (line: string) => Number(/MB, ([0-9.]+) \//.exec(line)?.[1] ?? 0);
    const gcMs = samples.flatMap((s) => s.gc.map(pauseOf));
    const cpuWith = percentiles(withGc.map((s) => s.mainCpu));
    const cpuWithout = percentiles(samples.filter((s) => s.gc.length === 0).map((s) => s.mainCpu));
    const pauses = percentiles(gcMs);
    console.log(
      `  GC: ${gcMs.length} pauses (${samples.flatMap((s) => s.gc).filter((l) => l.includes('Mark')).length} mark-compact), ${(gcMs.reduce((a, b) => a + b, 0) / samples.length).toFixed(3)} ms per request; pause p50 ${pauses.p50.toFixed(2)} p95 ${pauses.p95.toFixed(2)} max ${pauses.max.toFixed(2)}; main CPU of requests with a GC p50 ${cpuWith.p50.toFixed(2)} p95 ${cpuWith.p95.toFixed(2)}, without p50 ${cpuWithout.p50.toFixed(2)} p95 ${cpuWithout.p95.toFixed(2)}`,
    );
    const clientGc = percentiles(samples.map((s) => s.clientGc));
    console.log(
      `  client GC: ${samples.filter((s) => s.clientGc > 0).length} requests, ${(samples.reduce((sum, s) => sum + s.clientGc, 0) / samples.length).toFixed(3)} ms per request, max ${clientGc.max.toFixed(2)}`,
    );
    const server = percentiles(samples.map((s) => s.mainCpu + s.mainWait));
    const rest = percentiles(samples.map((s) => s.wall - s.mainCpu - s.mainWait));
    console.log(
      `  server's main thread on CPU + waiting for one: p50 ${server.p50.toFixed(2)} p95 ${server.p95.toFixed(2)}; the rest of the wall time (client, loopback, sleeps): p50 ${rest.p50.toFixed(2)} p95 ${rest.p95.toFixed(2)}`,
    );
    const row = (s: Sample) =>
      `  i%${s.i} wall ${s.wall.toFixed(2)} mainCPU ${s.mainCpu.toFixed(2)} sleeps ${s.slept} runqWait ${s.mainWait.toFixed(2)} others ${[...s.others].map(([n, ms]) => `${n}:${ms.toFixed(2)}`).join(',')}${s.gc.length ? ` GC: ${s.gc.join(' | ')}` : ''}`;
    const sorted = [...samples].sort((a, b) => b.wall - a.wall);
    console.log(' slowest:');
    for (const s of sorted.slice(0, 8)) console.log(row(s));
    const threadTotals = new Map<string, number>();
    for (const s of samples)
      for (const [n, ms] of s.others) threadTotals.set(n, (threadTotals.get(n) ?? 0) + ms);
    console.log(
      ` other threads, ms per request: ${[...threadTotals].map(([n, ms]) => `${n} ${(ms / samples.length).toFixed(2)}`).join(', ')}`,
    );
    console.log(' median-ish:');
    for (const s of sorted.slice(Math.floor(sorted.length / 2), Math.floor(sorted.length / 2) + 3))
      console.log(row(s));
    // Per query variant (bench shapes cycle over actions/users): the median main-thread CPU of each.
    const byQuery = new Map<string, number[]>();
    for (const s of samples) {
      const key = shape.query(s.i);
      byQuery.set(key, [...(byQuery.get(key) ?? []), s.mainCpu]);
    }
    if (byQuery.size > 60) {
      const costly = [...samples].sort((a, b) => b.mainCpu - a.mainCpu).slice(0, 5);
      console.log(
        ` most CPU: ${costly.map((s) => `${s.mainCpu.toFixed(2)} ${decodeURIComponent(shape.query(s.i))}`).join(' ; ')}`,
      );
    }
    if (byQuery.size > 1 && byQuery.size <= 60) {
      const medians = [...byQuery].map(([key, list]) => [key, percentiles(list).p50] as const);
      medians.sort((a, b) => b[1] - a[1]);
      console.log(
        ` per query, median main CPU ms (of ${byQuery.size}): ${medians
          .map(([key, ms]) => `${ms.toFixed(2)} ${decodeURIComponent(key).slice(0, 60)}`)
          .slice(0, 4)
          .join(' ; ')} … ${medians.at(-1)![1].toFixed(2)}`,
      );
    }
  }
} finally {
  child.kill('SIGTERM');
  await once(child, 'exit');
}
