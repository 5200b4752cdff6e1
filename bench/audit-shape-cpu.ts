/**
 * The server's CPU time per request of bench:audit's query shapes (the timelines by default), for this build and
 * optionally a baseline build side by side: blocks of requests sent to one server and then the other, the order
 * alternating, over several rounds. CPU is read from /proc (user + system, 10 ms ticks): the whole process and its
 * main thread apart, so that work of other threads (the integrity check, the monitoring writer) shows. Wall-clock
 * p50 / p95 are printed too, but on a loaded machine they say less. A shape measured just after a write
 * (`Shape.afterWrite`) writes before each request, untimed and its CPU left out. Reuses a data dir that `npm run bench:audit --
 * --keep` left (bench/.data/audit); the baseline needs its own (bench:audit's --baseline imports one).
 * On PostgreSQL (`--postgres DIR`: a cluster bench:audit kept, e.g. bench/.data/audit/postgres-cluster, with the
 * data dir bench/.data/audit/postgres-data), the server's CPU per request is counted too: the cluster's processes
 * (its backends run the statements), those that ended included. A baseline then needs a copy of the cluster
 * (`--baseline-postgres DIR`).
 *
 *   tsx bench/audit-shape-cpu.ts [--shape timeline|console] [--requests 100] [--rounds 5]
 *       [--data-dir DIR] [--baseline path/to/out/server/cli.js --baseline-data-dir DIR] [--cpu-prof DIR]
 *       [--env Section__Key=value]... [--end-ms N] [--path /api/v1/...]... [--node-arg --perf-basic-prof]...
 *       [--postgres DIR [--baseline-postgres DIR]]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { shapesOfTrail, type Shape } from './lib/audit-query-shapes.js';
import {
  CLI,
  FULL_AUDIT_ENV,
  ROOT,
  gatehouseToken,
  startGatehouseServe,
  type ServedGatehouse,
} from './lib/gatehouse-serve.js';
import { percentiles } from './lib/stats.js';
import { writeToTrail } from './lib/audit-trail-write.js';
import { startPostgresServer, type PostgresServer } from '../test/helpers/postgres-server.js';

const { values } = parseArgs({
  options: {
    shape: { type: 'string', default: 'timeline' },
    requests: { type: 'string', default: '100' },
    rounds: { type: 'string', default: '5' },
    'data-dir': { type: 'string', default: join(ROOT, 'bench/.data/audit/sqlite-data') },
    baseline: { type: 'string' },
    'baseline-data-dir': { type: 'string', default: join(ROOT, 'bench/.data/audit/baseline-data') },
    'cpu-prof': { type: 'string' },
    env: { type: 'string', multiple: true, default: [] },
    'end-ms': { type: 'string' },
    path: { type: 'string', multiple: true, default: [] },
    'node-arg': { type: 'string', multiple: true, default: [] },
    postgres: { type: 'string' },
    'baseline-postgres': { type: 'string' },
  },
});
const REQUESTS = Number(values.requests);
const ROUNDS = Number(values.rounds);
const TICK_MS = 10;
/** Where the generated trail ends: the kept run's (bench/.data/audit/dataset.json) unless given. */
const endMs =
  values['end-ms'] !== undefined
    ? Number(values['end-ms'])
    : (JSON.parse(readFileSync(join(ROOT, 'bench/.data/audit/dataset.json'), 'utf8')) as { endMs: number })
        .endMs;
const extraEnv = Object.fromEntries(values.env.map((pair) => pair.split('=', 2) as [string, string]));

interface Candidate {
  name: string;
  served: ServedGatehouse;
  headers: Record<string, string>;
  /** On PostgreSQL: the postmaster's pid, whose processes run the statements. */
  postmaster?: number;
}

/** A kept cluster started, and the URL of its `gatehouse` database. */
async function startCluster(
  dir: string,
): Promise<{ server: PostgresServer; url: string; postmaster: number }> {
  const server = await startPostgresServer({ dir });
  const postmaster = Number(readFileSync(join(dir, 'data/postmaster.pid'), 'utf8').split('\n')[0]);
  return { server, url: server.url.replace(/\/postgres$/, '/gatehouse'), postmaster };
}

/**
 * CPU ms of a cluster: the postmaster, its live processes, and those it reaped (its children's times, which the
 * kernel adds to the parent when it waits for them).
 */
function clusterCpuMs(postmaster: number): number {
  const fields = readFileSync(`/proc/${postmaster}/stat`, 'utf8').split(') ')[1]!.split(' ');
  let ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]!.split(' ');
      if (Number(stat[1]) === postmaster) ticks += Number(stat[11]) + Number(stat[12]);
    } catch {
      // The process ended meanwhile.
    }
  }
  return ticks * TICK_MS;
}

/** User + system ticks of the process, or of one of its threads. */
function cpuMs(pid: number, thread?: number): number {
  const file = thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`;
  const fields = readFileSync(file, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

/** CPU ms of each of the process's threads, by name and id (the main thread as `main`). */
function threadCpuMs(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  for (const thread of readdirSync(`/proc/${pid}/task`)) {
    try {
      const name = readFileSync(`/proc/${pid}/task/${thread}/comm`, 'utf8').trim();
      byName.set(`${name}#${Number(thread) === pid ? 'main' : thread}`, cpuMs(pid, Number(thread)));
    } catch {
      // The thread ended meanwhile.
    }
  }
  return byName;
}

/** CPU ms spent so far: the process, its main thread, each thread by name, the cluster's processes. */
interface Spent {
  cpu: number;
  main: number;
  threads: Map<string, number>;
  database: number;
}

/** Adds to `spent` what was spent between two snapshots. */
function addSpent(spent: Spent, before: Spent, after: Spent): void {
  spent.cpu += after.cpu - before.cpu;
  spent.main += after.main - before.main;
  spent.database += after.database - before.database;
  for (const [name, ms] of after.threads)
    spent.threads.set(name, (spent.threads.get(name) ?? 0) + ms - (before.threads.get(name) ?? 0));
}

async function start(
  name: string,
  cli: string,
  dataDir: string,
  profile?: string,
  cluster?: { url: string; postmaster: number },
): Promise<Candidate> {
  const env = {
    ...FULL_AUDIT_ENV,
    ...(cluster && { ConnectionStrings__Gatehouse: cluster.url }),
    ...extraEnv,
  };
  const token = gatehouseToken(dataDir, 'Auditor', '2h', env, cli);
  const served = await startGatehouseServe(dataDir, {
    cli,
    env,
    nodeArgs: [...(profile ? ['--cpu-prof', '--cpu-prof-dir', profile] : []), ...values['node-arg']],
  });
  console.log(`${name}: pid ${served.pid}`);
  return { name, served, headers: { Authorization: `Bearer ${token}` }, postmaster: cluster?.postmaster };
}

async function get(candidate: Candidate, shape: Shape, i: number): Promise<void> {
  const response = await fetch(
    `${candidate.served.url}${shape.path?.startsWith('/api/') ? shape.path : `/api/v1/audit-log${shape.path ?? ''}?${shape.query(i)}`}`,
    { headers: candidate.headers },
  );
  if (response.status !== 200) throw new Error(`${candidate.name} ${shape.name}: ${response.status}`);
  await response.arrayBuffer();
}

/**
 * Waits until the process has used no CPU for a second, which is when the integrity check (from 5 s after the start)
 * is done, unless a loaded machine starves that thread (it runs at the lowest priority): its share then shows apart.
 */
async function quiet(candidate: Candidate): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 6000));
  // V8's profiler thread (--cpu-prof) ticks all along: not counted.
  const busy = () =>
    [...threadCpuMs(candidate.served.pid)]
      .filter(([name]) => !name.startsWith('v8:Prof'))
      .reduce((sum, [, ms]) => sum + ms, 0);
  for (;;) {
    const before = busy();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    if (busy() - before <= TICK_MS) return;
  }
}

const candidates: Candidate[] = [];
const clusters: PostgresServer[] = [];
const clusterOf = async (dir: string | undefined) => {
  if (dir === undefined) return undefined;
  const cluster = await startCluster(dir);
  clusters.push(cluster.server);
  return cluster;
};
try {
  candidates.push(
    await start('this build', CLI, values['data-dir'], values['cpu-prof'], await clusterOf(values.postgres)),
  );
  if (values.baseline)
    candidates.push(
      await start(
        'baseline',
        values.baseline,
        values['baseline-data-dir'],
        undefined,
        await clusterOf(values['baseline-postgres']),
      ),
    );
  for (const candidate of candidates) await quiet(candidate);
  // `--shape a|b`: the shapes whose names contain any of the alternatives.
  const wanted = values.shape.split('|');
  const shapes = (await shapesOfTrail(candidates[0]!.served.url, candidates[0]!.headers, endMs)).filter(
    (shape) => wanted.some((part) => shape.name.includes(part)),
  );
  // Any other path of the Control Panel, as it is (under /api/v1/audit-log, since that is where shapes live).
  for (const path of values.path) shapes.push({ name: path, path, query: () => '' });
  const results = new Map<string, { cpu: number[]; main: number[]; database: number[]; wall: number[] }>();
  for (let round = 0; round < ROUNDS; round++) {
    const load = loadavg()[0]!.toFixed(1);
    for (const shape of shapes) {
      const order = round % 2 === 0 ? candidates : [...candidates].reverse();
      for (const candidate of order) {
        for (let i = 0; i < 10; i++) await get(candidate, shape, i);
        const { pid } = candidate.served;
        const wall: number[] = [];
        const snapshot = (): Spent => ({
          cpu: cpuMs(pid),
          main: cpuMs(pid, pid),
          threads: threadCpuMs(pid),
          database: candidate.postmaster === undefined ? 0 : clusterCpuMs(candidate.postmaster),
        });
        const spent: Spent = { cpu: 0, main: 0, threads: new Map(), database: 0 };
        // A shape measured just after a write: its requests' CPU apart, the writes' left out.
        const apart = shape.afterWrite === true;
        let before = snapshot();
        for (let i = 0; i < REQUESTS; i++) {
          if (apart) {
            await writeToTrail(candidate.served.url, candidate.headers, i);
            before = snapshot();
          }
          const started = performance.now();
          await get(candidate, shape, i);
          wall.push(performance.now() - started);
          if (apart) addSpent(spent, before, snapshot());
        }
        if (!apart) addSpent(spent, before, snapshot());
        const cpu = spent.cpu / REQUESTS;
        const main = spent.main / REQUESTS;
        const database = spent.database / REQUESTS;
        const threads = [...spent.threads]
          .map(([name, ms]) => [name, ms / REQUESTS] as const)
          .filter(([, ms]) => ms > 0)
          .map(([name, ms]) => `${name} ${ms.toFixed(2)}`)
          .join(', ');
        const key = `${shape.name} | ${candidate.name}`;
        const result = results.get(key) ?? { cpu: [], main: [], database: [], wall: [] };
        result.cpu.push(cpu);
        result.main.push(main);
        result.database.push(database);
        result.wall.push(...wall);
        results.set(key, result);
        const { p50, p95 } = percentiles(wall);
        console.log(
          `round ${round + 1} (load ${load}) ${key}: CPU ${cpu.toFixed(2)} ms/request (main thread ${main.toFixed(2)}${candidate.postmaster === undefined ? '' : `, PostgreSQL ${database.toFixed(2)}`}), wall p50 ${p50.toFixed(2)} p95 ${p95.toFixed(2)} ms; by thread: ${threads}`,
        );
      }
    }
  }
  const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
  const each = (list: number[]) => `${median(list).toFixed(2)} (${list.map((v) => v.toFixed(2)).join(', ')})`;
  console.log(
    '\n| shape | build | CPU ms/request, median of rounds (each) | main thread | PostgreSQL CPU ms/request | wall p50 / p95 |',
  );
  console.log('|---|---|---|---:|---|---|');
  for (const [key, { cpu, main, database, wall }] of results) {
    const { p50, p95 } = percentiles(wall);
    console.log(
      `| ${key} | ${each(cpu)} | ${median(main).toFixed(2)} | ${each(database)} | ${p50.toFixed(2)} / ${p95.toFixed(2)} |`,
    );
  }
} finally {
  for (const candidate of candidates) await candidate.served.stop();
  for (const cluster of clusters) cluster.stop();
}
