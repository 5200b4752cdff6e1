/**
 * npx tsx bench/monitoring-write-thread.ts — what API Monitoring's writes cost the server's main thread.
 *
 *   npx tsx bench/monitoring-write-thread.ts [--records 60000] [--batch 1000] [--probe-ms 5] [--append]
 *
 * Writes N records shaped like the full route's (an API, an operation, a target, an identity; no capture) through
 * the store in batches of the recorder's size, one after another as the recorder does (`--append`: through
 * `append`, as bench:monitoring's append phase, which also makes the stored records), and reports:
 * - records/s (wall clock: shared with whatever else the machine runs);
 * - the main thread's own CPU time per record (Linux: /proc/thread-self/schedstat, so the writer thread's CPU
 *   is not counted), and the process's (process.cpuUsage: every thread); per thread, the busiest other thread
 *   (the writer thread where there is one) and all the others together (/proc/self/task/<tid>/schedstat);
 * - the event loop's delay while writing (monitorEventLoopDelay: p99, max);
 * - a probe: every --probe-ms a main-thread write transaction (one row, `begin immediate` as the audit's and the
 *   configuration's), timed from its start to its commit: how long the main connection waits behind the
 *   monitoring writes (max is the worst case seen); `--probe-ms 0`: no probe.
 * Runs from any checkout with the same store API, so a baseline tree can run it too (`npx tsx` there).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createLogger } from '../src-server/core/logging/logger.js';
import type { NewMonitoringRecord } from '../src-server/core/monitoring/monitoring-record.js';
import { SqlMonitoringStore } from '../src-server/core/monitoring/sql/sql-monitoring-store.js';
import { Database } from '../src-server/core/storage/database.js';

const { values: args } = parseArgs({
  options: {
    records: { type: 'string', default: '60000' },
    batch: { type: 'string', default: '1000' },
    'probe-ms': { type: 'string', default: '5' },
    append: { type: 'boolean', default: false },
  },
});
const total = Number(args.records);
const batchSize = Number(args.batch);
const probeMs = Number(args['probe-ms']);

/** This thread's time on a CPU, in ns (the first field of schedstat). */
function threadCpuNs(): number {
  return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]);
}

/** Every thread's time on a CPU so far, in ns, by its id (a thread that ended since is not in it). */
function tasksCpuNs(): Map<string, number> {
  const times = new Map<string, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      times.set(tid, Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]));
    } catch {
      // Ended meanwhile.
    }
  }
  return times;
}

/** Per record, in µs: the busiest thread other than the main one, and all the others together. */
function otherThreadsUs(before: Map<string, number>, after: Map<string, number>, records: number) {
  const spent = [...after]
    .filter(([tid]) => tid !== String(process.pid))
    .map(([tid, ns]) => ns - (before.get(tid) ?? 0))
    .sort((a, b) => b - a);
  const perRecord = (ns: number) => +(ns / 1_000 / records).toFixed(2);
  return {
    busiest: perRecord(spent[0] ?? 0),
    rest: perRecord(spent.slice(1).reduce((a, b) => a + b, 0)),
    each: spent.filter((ns) => ns > 0).map(perRecord),
  };
}

function fullRouteRecord(k: number, timeMs: number): NewMonitoringRecord {
  return {
    time: new Date(timeMs).toISOString(),
    agentGroupId: 'default',
    agentGroupName: 'Default',
    method: k % 5 === 0 ? 'POST' : 'GET',
    path: `/orders/v1/orders/${k % 997}`,
    apiId: `api-${k % 7}`,
    apiName: `Orders ${k % 7}`,
    operation: k % 5 === 0 ? 'createOrder' : 'getOrder',
    viaAllOperations: undefined,
    status: k % 50 === 0 ? 502 : 200,
    durationMs: 1 + (k % 300) / 10,
    bytesIn: k % 5 === 0 ? 512 : 0,
    bytesOut: 2_048,
    targetUrl: `http://127.0.0.1:8080/orders/${k % 997}`,
    outcome: 'forwarded',
    clientIp: '127.0.0.1',
    identity: 'client-app',
    reason: undefined,
    capture: undefined,
  };
}

const dir = await mkdtemp(path.join(os.tmpdir(), 'gatehouse-bench-monw-'));
const database = await Database.open({ dataDir: dir, logger: createLogger('warn') });
const store = new SqlMonitoringStore(database);
const startMs = Date.now() - 3_600_000;
const batches: NewMonitoringRecord[][] = [];
for (let from = 0; from < total; from += batchSize) {
  batches.push(
    Array.from({ length: Math.min(batchSize, total - from) }, (_, k) =>
      fullRouteRecord(from + k, startMs + (from + k) * 10),
    ),
  );
}
// Warm-up: the statements prepared, the writer thread (where there is one) started.
await store.write(batches[0]!.slice(0, 10));

const probes: number[] = [];
const state = { probing: true };
const probe = (async () => {
  let k = 0;
  while (state.probing && probeMs > 0) {
    const started = performance.now();
    await database.transaction(async (trx) => {
      await trx
        .insertInto('sequences')
        .values({ name: `bench-probe-${k++ % 10}`, value: 1 })
        .onConflict((conflict) => conflict.column('name').doUpdateSet({ value: 1 }))
        .execute();
    });
    probes.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, probeMs));
  }
})();

const delay = monitorEventLoopDelay({ resolution: 1 });
delay.enable();
const cpuBefore = process.cpuUsage();
const tasksBefore = tasksCpuNs();
const threadBefore = threadCpuNs();
const wallBefore = performance.now();
let kept = 0;
for (const batch of batches)
  kept += args.append ? (await store.append(batch)).length : await store.write(batch);
const wallMs = performance.now() - wallBefore;
const threadUs = (threadCpuNs() - threadBefore) / 1_000;
const cpu = process.cpuUsage(cpuBefore);
const others = otherThreadsUs(tasksBefore, tasksCpuNs(), kept);
delay.disable();
state.probing = false;
await probe;

const sorted = [...probes].sort((a, b) => a - b);
const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
console.log(
  JSON.stringify({
    records: kept,
    wallMs: Math.round(wallMs),
    recordsPerS: Math.round(kept / (wallMs / 1_000)),
    mainThreadCpuUsPerRecord: +(threadUs / kept).toFixed(2),
    processCpuUsPerRecord: +((cpu.user + cpu.system) / kept).toFixed(2),
    otherThreadsCpuUsPerRecord: others,
    eventLoopDelayMs: { p99: +(delay.percentile(99) / 1e6).toFixed(2), max: +(delay.max / 1e6).toFixed(2) },
    mainWriteMs:
      probes.length === 0
        ? undefined
        : {
            n: probes.length,
            p50: +at(0.5).toFixed(2),
            p99: +at(0.99).toFixed(2),
            max: +sorted.at(-1)!.toFixed(2),
          },
    load: os.loadavg().map((x) => +x.toFixed(2)),
  }),
);
await store.close();
await database.close();
await rm(dir, { recursive: true, force: true });
