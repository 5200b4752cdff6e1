/**
 * The gateway's latency while the largest descriptions are imported, measured so that the machine's noise hits
 * both conditions alike: rounds of (a phase without imports, then a phase with imports back to back), each phase
 * an open-loop load at a fixed rate (open-loop-load.ts). With two servers (this build and a baseline build) each
 * round runs both, their order alternating. Reports every phase, then per server and condition the pooled
 * latencies, and the import phases' p99 against the no-import phases'.
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { percentile } from './stats.js';
import { processCpuSeconds } from './process-cpu.js';
import { schedstat } from './thread-cpu.js';
import { ROOT } from './gatehouse-serve.js';
import type { ManagementClient } from './import-load.js';

export interface LatencySubject {
  label: string;
  pid: number;
  /** The Control Panel's base URL: its /metrics gives the server's own event-loop delay. */
  url: string;
  client: ManagementClient;
  /** A passthrough URL of the gateway. */
  gateway: string;
  /** `POST` a description here to import it. */
  importPath: string;
}

export interface LatencyOptions {
  rounds: number;
  seconds: number;
  rate: number;
  /** The descriptions imported, in turn, during the import phases. */
  files: string[];
}

type Condition = 'no import' | 'imports';

interface Phase {
  round: number;
  subject: string;
  condition: Condition;
  latencies: number[];
  errors: number;
  non2xx: number;
  imports: number;
  /** The server process's CPU time during the phase (main thread, import worker and all). */
  cpuSeconds: number;
  /** The server's main thread alone: its CPU time, and its time runnable but waiting for a core. */
  mainCpuSeconds: number;
  mainWaitSeconds: number;
  /** The server's main thread, from its /metrics (prom-client's event-loop delay, reset at each scrape). */
  loopDelayP99: number;
  loopDelayMax: number;
  load: number;
}

interface LoadOutput {
  latencies: number[];
  errors: number;
  non2xx: number;
}

function openLoopLoad(url: string, seconds: number, rate: number): Promise<LoadOutput> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'bench/lib/open-loop-load.ts', url, String(seconds), String(rate)],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code === 0) resolve(JSON.parse(output) as LoadOutput);
      else reject(new Error(`the load generator exited with ${String(code)}`));
    });
  });
}

async function runPhase(
  subject: LatencySubject,
  condition: Condition,
  round: number,
  options: LatencyOptions,
): Promise<Phase> {
  await eventLoopDelay(subject.url); // resets the server's histogram
  const cpuBefore = processCpuSeconds(subject.pid) ?? 0;
  const mainBefore = schedstat(subject.pid) ?? { running: 0, waiting: 0 };
  let imports = 0;
  let loadDone = false;
  const load = openLoopLoad(subject.gateway, options.seconds, options.rate).finally(() => {
    loadDone = true;
  });
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- set when the load ends, while awaiting
  while (condition === 'imports' && !loadDone) {
    const file = options.files[imports % options.files.length]!;
    const id = await subject.client.importFile(subject.importPath, file);
    await subject.client.call('DELETE', `/api/v1/apis/${id}`);
    imports += 1;
  }
  const output = await load;
  const cpuSeconds = (processCpuSeconds(subject.pid) ?? 0) - cpuBefore;
  const mainAfter = schedstat(subject.pid) ?? { running: 0, waiting: 0 };
  const delay = await eventLoopDelay(subject.url);
  return {
    round,
    subject: subject.label,
    condition,
    ...output,
    imports,
    cpuSeconds,
    mainCpuSeconds: mainAfter.running - mainBefore.running,
    mainWaitSeconds: mainAfter.waiting - mainBefore.waiting,
    loopDelayP99: delay.p99,
    loopDelayMax: delay.max,
    load: loadavg()[0]!,
  };
}

/** The server's event-loop delay since the last scrape, in ms (prom-client resets its histogram at each one). */
async function eventLoopDelay(url: string): Promise<{ p99: number; max: number }> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const seconds = (name: string) => Number(new RegExp(`^${name}\\s+(\\S+)`, 'm').exec(text)?.[1] ?? NaN);
  return {
    p99: seconds('nodejs_eventloop_lag_p99_seconds') * 1000,
    max: seconds('nodejs_eventloop_lag_max_seconds') * 1000,
  };
}

const fixed = (value: number) => (value < 10 ? value.toFixed(1) : Math.round(value).toString());

function summary(latencies: number[]) {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    requests: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    p999: percentile(sorted, 99.9),
    max: sorted.at(-1) ?? 0,
  };
}

export async function interleavedImportLatency(
  subjects: LatencySubject[],
  options: LatencyOptions,
): Promise<void> {
  const phases: Phase[] = [];
  // Not counted: the first requests of a server compile its code paths and open the connections.
  for (const subject of subjects) await openLoopLoad(subject.gateway, 3, options.rate);
  console.log(
    `\n## Gateway latency at ${options.rate} req/s (open loop), ${options.rounds} rounds of a ${options.seconds} s phase without imports then one with imports (target: p99 ≤ 20 ms during imports)\n`,
  );
  console.log(
    '| round | server | while | requests | p50 | p99 | max | errors | non-2xx | imports | server CPU | main thread CPU / waiting for a core | server loop delay p99 / max | load avg |',
  );
  console.log('|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (let round = 1; round <= options.rounds; round++) {
    const order = round % 2 === 1 ? subjects : [...subjects].reverse();
    for (const subject of order) {
      for (const condition of ['no import', 'imports'] as const) {
        const phase = await runPhase(subject, condition, round, options);
        phases.push(phase);
        const stats = summary(phase.latencies);
        console.log(
          `| ${round} | ${subject.label} | ${condition} | ${stats.requests} | ${fixed(stats.p50)} ms | ${fixed(stats.p99)} ms | ${fixed(stats.max)} ms | ${phase.errors} | ${phase.non2xx} | ${phase.imports} | ${phase.cpuSeconds.toFixed(2)} s | ${phase.mainCpuSeconds.toFixed(2)} / ${phase.mainWaitSeconds.toFixed(2)} s | ${fixed(phase.loopDelayP99)} / ${fixed(phase.loopDelayMax)} ms | ${phase.load.toFixed(1)} |`,
        );
      }
    }
  }
  console.log(
    '\nPooled over the rounds (p99 of every request of the condition; the median of the phases’ p99 beside it):\n',
  );
  console.log(
    '| server | while | requests | p50 | p99 pooled | p99.9 | max | median phase p99 | server CPU per import | main thread CPU per import | main thread waiting for a core | server loop delay: median phase p99 / max |',
  );
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  const pooledP99 = new Map<string, number>();
  for (const subject of subjects) {
    const cpuPerSecond = new Map<Condition, number>();
    const mainCpuPerSecond = new Map<Condition, number>();
    for (const condition of ['no import', 'imports'] as const) {
      const own = phases.filter((phase) => phase.subject === subject.label && phase.condition === condition);
      const stats = summary(own.flatMap((phase) => phase.latencies));
      const phaseP99 = own.map((phase) => summary(phase.latencies).p99).sort((a, b) => a - b);
      const medianP99 = phaseP99[Math.floor(phaseP99.length / 2)] ?? 0;
      const loopP99 = own.map((phase) => phase.loopDelayP99).sort((a, b) => a - b);
      const loopMax = Math.max(...own.map((phase) => phase.loopDelayMax));
      const cpu = own.reduce((sum, phase) => sum + phase.cpuSeconds, 0);
      const imports = own.reduce((sum, phase) => sum + phase.imports, 0);
      const mainCpu = own.reduce((sum, phase) => sum + phase.mainCpuSeconds, 0);
      const mainWait = own.reduce((sum, phase) => sum + phase.mainWaitSeconds, 0);
      cpuPerSecond.set(condition, cpu / (own.length * options.seconds));
      mainCpuPerSecond.set(condition, mainCpu / (own.length * options.seconds));
      // The import's own CPU: the phase's CPU less what the gateway used in the phases without imports.
      const importCpu =
        imports > 0
          ? `${(((cpu - (cpuPerSecond.get('no import') ?? 0) * own.length * options.seconds) / imports) * 1000).toFixed(0)} ms`
          : '–';
      const mainImportCpu =
        imports > 0
          ? `${(((mainCpu - (mainCpuPerSecond.get('no import') ?? 0) * own.length * options.seconds) / imports) * 1000).toFixed(0)} ms`
          : '–';
      const waitShare = `${((mainWait / (own.length * options.seconds)) * 100).toFixed(1)} % of the time`;
      pooledP99.set(`${subject.label}/${condition}`, stats.p99);
      console.log(
        `| ${subject.label} | ${condition} | ${stats.requests} | ${fixed(stats.p50)} ms | ${fixed(stats.p99)} ms | ${fixed(stats.p999)} ms | ${fixed(stats.max)} ms | ${fixed(medianP99)} ms | ${importCpu} | ${mainImportCpu} | ${waitShare} | ${fixed(loopP99[Math.floor(loopP99.length / 2)] ?? 0)} / ${fixed(loopMax)} ms |`,
      );
    }
  }
  console.log('');
  for (const subject of subjects) {
    const quiet = pooledP99.get(`${subject.label}/no import`)!;
    const busy = pooledP99.get(`${subject.label}/imports`)!;
    console.log(
      `${subject.label}: p99 during imports ${fixed(busy)} ms vs ${fixed(quiet)} ms without, ${(busy / quiet).toFixed(2)}x, ${busy - quiet >= 0 ? '+' : ''}${fixed(busy - quiet)} ms.`,
    );
  }
}
