/**
 * Cold start of `gatehouse serve` in CPU time and RSS, which load from other processes disturbs less than wall
 * time: each start is timed until its first 200 from `GET /api/v1/audit-log`, and the process's CPU (user + system,
 * from /proc) and RSS are read then, and its RSS again after a few idle seconds. Several CLIs (e.g. a build before
 * and after a change) start in turn, alternating, on the same data dir.
 *
 *   tsx bench/serve-start-cpu.ts --data-dir DIR --cli out/server/cli.js --cli /tmp/old/cli.js [--rounds 5]
 *   [--node-option=--max-semi-space-size=2] (Node options of the servers, for every CLI)
 */
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { FULL_AUDIT_ENV } from './lib/gatehouse-serve.js';
import { processCpuSeconds } from './lib/process-cpu.js';
import { rssOf, startCold } from './lib/audit-candidates.js';

const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    cli: { type: 'string', multiple: true },
    rounds: { type: 'string', default: '5' },
    'idle-seconds': { type: 'string', default: '3' },
    'node-option': { type: 'string', multiple: true, default: [] },
  },
});
const dataDir = values['data-dir'];
const clis = values.cli ?? [];
if (!dataDir || clis.length === 0) throw new Error('--data-dir DIR and at least one --cli FILE are needed');
const env = { Logging__Level: 'warn', ...FULL_AUDIT_ENV };

const tokenRun = spawnSync(
  process.execPath,
  [clis[0]!, 'token', '--data-dir', dataDir, '--roles', 'Auditor'],
  {
    encoding: 'utf8',
    env,
  },
);
if (tokenRun.status !== 0) throw new Error(`gatehouse token failed: ${tokenRun.stderr}`);
const headers = { Authorization: `Bearer ${tokenRun.stdout.trim()}` };

interface Sample {
  wallMs: number;
  cpuMs: number;
  rssMb: number;
  idleRssMb: number;
}

async function startOnce(cli: string): Promise<Sample> {
  const server = await startCold(
    [
      ...values['node-option'],
      cli,
      'serve',
      '--data-dir',
      dataDir!,
      '--port',
      '0',
      '--gateway-port',
      '0',
      '--no-sign-in-link',
    ],
    env,
    (output) => /Control Panel:\s+(\S+)/.exec(output)?.[1],
    headers,
  );
  const cpuMs = (processCpuSeconds(server.pid) ?? NaN) * 1000;
  const rssMb = rssOf(server.pid) / 2 ** 20;
  await new Promise((resolve) => setTimeout(resolve, Number(values['idle-seconds']) * 1000));
  const idleRssMb = rssOf(server.pid) / 2 ** 20;
  await server.stop();
  return { wallMs: server.coldStartMs, cpuMs, rssMb, idleRssMb };
}

const median = (numbers: number[]) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)]!;
const samples = new Map<string, Sample[]>(clis.map((cli) => [cli, []]));
for (let round = 0; round < Number(values.rounds); round++) {
  const order = round % 2 === 0 ? clis : [...clis].reverse();
  for (const cli of order) samples.get(cli)!.push(await startOnce(cli));
}
console.log('| CLI | CPU to first answer, ms | wall, ms | RSS at first answer, MB | RSS idle, MB |');
console.log('|---|---:|---:|---:|---:|');
for (const [cli, list] of samples) {
  const column = (pick: (sample: Sample) => number) =>
    `${median(list.map(pick)).toFixed(0)} (${list.map((sample) => pick(sample).toFixed(0)).join(', ')})`;
  console.log(
    `| ${cli} | ${column((s) => s.cpuMs)} | ${column((s) => s.wallMs)} | ${column((s) => s.rssMb)} | ${column((s) => s.idleRssMb)} |`,
  );
}
