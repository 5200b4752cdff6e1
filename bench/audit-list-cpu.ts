/**
 * Server CPU per request of bench:audit's list shapes, this build side by side with another (a baseline build of
 * main), each `gatehouse serve` on its own copy of the same trail: a measure that load from elsewhere barely moves,
 * where wall-clock p95 on a shared machine does. Per shape and round, each build answers `--requests` of the shape
 * in turn (the order alternating by round); CPU is user + system from /proc, wall time is reported beside it.
 *
 *   tsx bench/audit-list-cpu.ts --data-dir DIR --baseline-cli path/to/out/server/cli.js --baseline-data-dir DIR2
 *                               [--requests 300] [--rounds 3]
 * The data dirs are `gatehouse audit import`s of the same file, e.g. bench:audit's with `--keep --baseline`
 * (bench/.data/audit/sqlite-data and baseline-data).
 */
import { loadavg } from 'node:os';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { gatehouseCandidate, type RunningCandidate } from './lib/audit-candidates.js';
import { queryShapes } from './lib/audit-query-shapes.js';
import { CLI } from './lib/gatehouse-serve.js';
import { percentiles } from './lib/stats.js';

const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    'baseline-cli': { type: 'string' },
    'baseline-data-dir': { type: 'string' },
    requests: { type: 'string', default: '300' },
    rounds: { type: 'string', default: '3' },
  },
});
const dataDir = values['data-dir'];
const baselineCli = values['baseline-cli'];
const baselineDataDir = values['baseline-data-dir'];
if (!dataDir || !baselineCli || !baselineDataDir)
  throw new Error('--data-dir, --baseline-cli and --baseline-data-dir are required');
const REQUESTS = Number(values.requests);
const ROUNDS = Number(values.rounds);

/** A process's CPU time (user + system) so far, in ms: clock ticks of 10 ms from /proc. */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function get(
  server: RunningCandidate,
  query: string,
): Promise<{ items: { actionName: string; userName: string }[] }> {
  const response = await fetch(`${server.url}/api/v1/audit-log?${query}`, { headers: server.headers });
  if (response.status !== 200) throw new Error(`${response.status}: ${await response.text()}`);
  return (await response.json()) as { items: { actionName: string; userName: string }[] };
}

const candidates = [
  gatehouseCandidate('this build', dataDir, {}, CLI),
  gatehouseCandidate('baseline build', baselineDataDir, {}, baselineCli),
];
const servers: RunningCandidate[] = [];
try {
  for (const candidate of candidates) servers.push(await candidate.start());
  const probe = await get(servers[0]!, 'PageSize=200');
  const newest = await fetch(`${servers[0]!.url}/api/v1/audit-log?PageSize=1`, {
    headers: servers[0]!.headers,
  });
  const endMs =
    Date.parse(((await newest.json()) as { items: { timestamp: string }[] }).items[0]!.timestamp) + 1;
  const actions = [...new Set(probe.items.map((item) => item.actionName))];
  const users = [...new Set(probe.items.map((item) => item.userName))];
  const shapes = queryShapes(endMs, actions, users, { words: ['none'], pairs: ['none'] }).filter(
    (shape) => shape.path === undefined && !shape.gatehouseOnly,
  );
  console.log(`load average (1 min) at start: ${loadavg()[0]!.toFixed(1)}`);
  console.log(
    '| shape | round | this build CPU ms/request | baseline CPU ms/request | ratio | this p50 / p95 ms | baseline p50 / p95 ms |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const shape of shapes) {
    const ratios: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? [0, 1] : [1, 0];
      const cpu = [0, 0];
      const walls: number[][] = [[], []];
      for (const k of order) {
        const server = servers[k]!;
        for (let i = 0; i < 20; i++) await get(server, shape.query(i));
        const before = cpuMsOf(server.pid);
        for (let i = 0; i < REQUESTS; i++) {
          const started = performance.now();
          await get(server, shape.query(i));
          walls[k]!.push(performance.now() - started);
        }
        cpu[k] = (cpuMsOf(server.pid) - before) / REQUESTS;
      }
      ratios.push(cpu[0]! / cpu[1]!);
      const wall = (k: number) => {
        const { p50, p95 } = percentiles(walls[k]!);
        return `${p50.toFixed(2)} / ${p95.toFixed(2)}`;
      };
      console.log(
        `| ${shape.name} | ${round + 1} | ${cpu[0]!.toFixed(3)} | ${cpu[1]!.toFixed(3)} | ${(cpu[0]! / cpu[1]!).toFixed(2)}× | ${wall(0)} | ${wall(1)} |`,
      );
    }
    const median = [...ratios].sort((a, b) => a - b)[Math.floor(ratios.length / 2)]!;
    console.log(`| ${shape.name} | median ratio | | | ${median.toFixed(2)}× | | |`);
  }
  console.log(`load average (1 min) at end: ${loadavg()[0]!.toFixed(1)}`);
} finally {
  for (const server of servers) await server.stop();
}
