/**
 * npm run bench:audit-sync — `gatehouse audit sync` of a whole trail from a local peer (issue 14: 1,000,000 entries
 * in ≤ 2 minutes; an incremental sync with nothing new in ≤ 1 s).
 *
 * The peer is another Gatehouse (`gatehouse serve` on its own SQLite data dir, the generated trail imported) on
 * loopback, the same thing support staff sync from. Side by side in the same run: a bare walk of the same pages
 * (PageSize 200 over the same pinned range, each page fetched and parsed, nothing kept), which is what any client
 * of the endpoint must pay before storing anything, so `sync ÷ walk` is what the sync itself adds.
 *
 *   npm run bench:audit-sync -- [--count 1000000]
 */
import { spawn } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { importAuditDataset } from './lib/audit-dataset.js';
import { CLI, FULL_AUDIT_ENV, ROOT, gatehouseToken, startGatehouseServe } from './lib/gatehouse-serve.js';

const { values } = parseArgs({ options: { count: { type: 'string' } } });
const COUNT = Number(values.count ?? 1_000_000);
const WORK = join(ROOT, 'bench/.data/audit-sync');
const PAGE_SIZE = 200;

interface Timed {
  seconds: number;
  cpuSeconds: number;
  maxRssMb: number;
  stdout: string;
}

/** Runs the built CLI under /usr/bin/time: wall time, CPU (user + system) and peak RSS of the whole process. */
function timedCli(args: string[], input?: string): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('/usr/bin/time', ['-f', 'TIME %U %S %M', process.execPath, CLI, ...args], {
      env: { ...process.env, Logging__Level: 'warn' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = (performance.now() - started) / 1000;
      const match = /TIME ([\d.]+) ([\d.]+) (\d+)/.exec(stderr);
      if (code !== 0 || !match) {
        reject(new Error(`gatehouse ${args.join(' ')} failed (${code}):\n${stdout}\n${stderr}`));
        return;
      }
      resolve({
        seconds,
        cpuSeconds: Number(match[1]) + Number(match[2]),
        maxRssMb: Number(match[3]) / 1024,
        stdout,
      });
    });
    child.stdin.end(input ?? '');
  });
}

/** Walks every page of the range as a client would, keeping nothing: the floor any sync stands on. */
async function bareWalk(
  url: string,
  token: string,
  endMs: number,
): Promise<{ seconds: number; entries: number }> {
  const started = performance.now();
  let entries = 0;
  for (let page = 1; ; page++) {
    const query = `PageNumber=${page}&PageSize=${PAGE_SIZE}&endDateTimeUtc=${new Date(endMs).toISOString()}`;
    const response = await fetch(`${url}/api/v1/audit-log?${query}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    if (response.status !== 200) throw new Error(`page ${page}: ${response.status}`);
    const body = (await response.json()) as { items: unknown[] };
    entries += body.items.length;
    if (body.items.length < PAGE_SIZE) break;
  }
  return { seconds: (performance.now() - started) / 1000, entries };
}

async function main(): Promise<void> {
  await rm(WORK, { recursive: true, force: true });
  const peerDir = join(WORK, 'peer');
  const localDir = join(WORK, 'local');
  await mkdir(peerDir, { recursive: true });
  await mkdir(localDir, { recursive: true });
  const endMs = Date.now() - 3_600_000;
  const load = () => loadavg()[0]!.toFixed(1);
  console.log(`bench:audit-sync: ${COUNT.toLocaleString('en')} entries; load average ${load()}`);
  const imported = await importAuditDataset(peerDir, { count: COUNT, endMs });
  console.log(`peer: ${imported.toLocaleString('en')} entries imported`);

  const peer = await startGatehouseServe(peerDir, { env: { ...FULL_AUDIT_ENV } });
  try {
    const token = gatehouseToken(peerDir, 'Auditor', '2h');
    await timedCli(
      ['source', 'add', 'peer', '--base-url', peer.url, '--bearer', '--data-dir', localDir],
      `${token}\n`,
    );

    const walk = await bareWalk(peer.url, token, Date.now());
    console.log(`bare walk: ${walk.entries.toLocaleString('en')} entries in ${walk.seconds.toFixed(1)} s`);
    const full = await timedCli(['audit', 'sync', '--data-dir', localDir]);
    console.log(full.stdout.trim());
    const incremental = await timedCli(['audit', 'sync', '--data-dir', localDir]);
    console.log(incremental.stdout.trim());

    console.log(`\nCommand: npm run bench:audit-sync -- --count ${COUNT} (load average now ${load()})\n`);
    console.log('| measure | value | target |');
    console.log('|---|---:|---|');
    console.log(
      `| bare walk of the peer's pages (PageSize ${PAGE_SIZE}), s | ${walk.seconds.toFixed(1)} | — (the floor) |`,
    );
    console.log(
      `| full sync, whole CLI process, s (CPU s; peak RSS MB) | ${full.seconds.toFixed(1)} (${full.cpuSeconds.toFixed(1)}; ${full.maxRssMb.toFixed(0)}) | ≤ 120 s |`,
    );
    console.log(`| full sync ÷ bare walk | ${(full.seconds / walk.seconds).toFixed(2)}× | — |`);
    console.log(
      `| incremental sync with nothing new, whole CLI process, s (CPU s) | ${incremental.seconds.toFixed(2)} (${incremental.cpuSeconds.toFixed(2)}) | ≤ 1 s |`,
    );
  } finally {
    await peer.stop();
  }
}

await main();
