/**
 * bench:audit-import-threads — `gatehouse audit import FILE` into a fresh data dir, this build beside another,
 * interleaved by round: per import the wall time (entries/s), the process's CPU time, each busy thread's CPU time
 * (Linux /proc schedstat, polled every 20 ms: the writer is the main thread, the reader the worker thread with the
 * most CPU) and the load average. The wall time is the unit; on a shared machine the CPU times are the
 * comparable ones.
 *
 *   npm run bench:audit-import-threads -- --file F.ndjson --against /tmp/base/out/server/cli.js
 *   options: --rounds 5; --seed DIR (repeatable): each import goes into a copy of DIR instead of a fresh data dir,
 *   each seed a build of its own (e.g. one data dir with a trigger dropped beside the same without: --seed A --seed B
 *   without --against compares the two under this build)
 *
 * F is an NDJSON export (bench:audit's bench/.data/audit/entries.ndjson, or its first N lines).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CLI, ROOT } from './lib/gatehouse-serve.js';
import { processCpuSeconds } from './lib/process-cpu.js';
import { schedstat } from './lib/thread-cpu.js';

const { values: args } = parseArgs({
  options: {
    file: { type: 'string' },
    against: { type: 'string' },
    rounds: { type: 'string', default: '5' },
    seed: { type: 'string', multiple: true },
  },
});
if (!args.file) throw new Error('--file F.ndjson is required');
const file = resolve(args.file);
const rounds = Math.max(1, Number(args.rounds));

interface Run {
  wallSeconds: number;
  entries: number;
  processCpu: number;
  writerCpu: number;
  readerCpu: number;
  otherCpu: number;
  load: number;
}

async function importOnce(cli: string, seed: string | undefined): Promise<Run> {
  const dataDir = await mkdtemp(join(ROOT, 'bench/.data/import-threads-'));
  if (seed) await cp(seed, dataDir, { recursive: true });
  const load = loadavg()[0]!;
  const started = performance.now();
  const child = spawn(process.execPath, [cli, 'audit', 'import', file, '--data-dir', dataDir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const pid = child.pid!;
  const threads = new Map<number, number>();
  let processCpu = 0;
  const poll = () => {
    let tids: string[];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      return;
    }
    for (const tid of tids) {
      const running = schedstat(pid, Number(tid))?.running;
      if (running !== undefined) threads.set(Number(tid), running);
    }
    processCpu = processCpuSeconds(pid) ?? processCpu;
  };
  const timer = setInterval(poll, 20);
  const [code] = (await once(child, 'exit')) as [number | null];
  const wallSeconds = (performance.now() - started) / 1000;
  clearInterval(timer);
  await rm(dataDir, { recursive: true, force: true });
  if (code !== 0) throw new Error(`import exited ${code}: ${output}`);
  const entries = Number(/(\d+) entries read/.exec(output)?.[1] ?? Number.NaN);
  const writerCpu = threads.get(pid) ?? 0;
  const others = [...threads].filter(([tid]) => tid !== pid).map(([, seconds]) => seconds);
  const readerCpu = Math.max(0, ...others);
  const otherCpu = others.reduce((sum, seconds) => sum + seconds, 0) - readerCpu;
  return { wallSeconds, entries, processCpu, writerCpu, readerCpu, otherCpu, load };
}

const seeds = (args.seed ?? []).map((seed) => resolve(seed));
const builds: { name: string; cli: string; seed?: string }[] =
  seeds.length > 0
    ? seeds.map((seed) => ({ name: `seed ${seed.split('/').at(-1)}`, cli: CLI, seed }))
    : [{ name: 'this build', cli: CLI }];
if (args.against) builds.push({ name: 'against', cli: resolve(args.against), seed: seeds[0] });
const runs = new Map<string, Run[]>(builds.map((build) => [build.name, []]));
const seconds = (value: number) => value.toFixed(2);

console.log(`File: ${file}\n`);
console.log(
  '| round | build | entries/s | wall s | process CPU s | writer s | reader s | other threads s | load |',
);
console.log('|---:|---|---:|---:|---:|---:|---:|---:|---:|');
for (let round = 1; round <= rounds; round++) {
  const order = round % 2 === 1 ? builds : [...builds].reverse();
  for (const build of order) {
    const run = await importOnce(build.cli, build.seed);
    runs.get(build.name)!.push(run);
    console.log(
      `| ${round} | ${build.name} | ${Math.round(run.entries / run.wallSeconds).toLocaleString('en')} | ` +
        `${seconds(run.wallSeconds)} | ${seconds(run.processCpu)} | ${seconds(run.writerCpu)} | ` +
        `${seconds(run.readerCpu)} | ${seconds(run.otherCpu)} | ${run.load.toFixed(1)} |`,
    );
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
console.log('\n| build (median) | entries/s | wall s | process CPU s | writer s | reader s |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const build of builds) {
  const of = runs.get(build.name)!;
  console.log(
    `| ${build.name} | ${Math.round(median(of.map((run) => run.entries / run.wallSeconds))).toLocaleString('en')} | ` +
      `${seconds(median(of.map((run) => run.wallSeconds)))} | ${seconds(median(of.map((run) => run.processCpu)))} | ` +
      `${seconds(median(of.map((run) => run.writerCpu)))} | ${seconds(median(of.map((run) => run.readerCpu)))} |`,
  );
}
