/**
 * npm run bench:audit — the audit trail at 1,000,000 entries, side by side in one run:
 *   - Gatehouse on its embedded engine (SQLite in the data dir),
 *   - a plain SQLite table with three indexes behind a bare HTTP server (bench/lib/plain-sqlite-audit.ts),
 *   - Gatehouse on PostgreSQL on loopback (a server this benchmark starts, Debian's postgresql binaries).
 * Each imports the same generated NDJSON, starts cold, and answers the same query shapes over HTTP.
 *
 *   npm run bench:audit -- [--count 1000000] [--samples 200] [--skip-postgres]
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildSync } from 'esbuild';
import { startPostgresServer } from '../test/helpers/postgres-server.js';
import { writeAuditNdjson } from './lib/audit-dataset.js';
import { CLI, FULL_AUDIT_ENV, ROOT, gatehouseToken } from './lib/gatehouse-serve.js';
import { formatMs, percentiles } from './lib/stats.js';

const { values } = parseArgs({
  options: {
    count: { type: 'string' },
    samples: { type: 'string' },
    'skip-postgres': { type: 'boolean', default: false },
  },
});
const COUNT = Number(values.count ?? 1_000_000);
const SAMPLES = Number(values.samples ?? 200);
const WORK = join(ROOT, 'bench/.data/audit');
const DAY = 86_400_000;

if (!existsSync(CLI)) throw new Error('Build the server first: npm run build:server');

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
}

interface Running {
  url: string;
  pid: number;
  coldStartMs: number;
  headers: Record<string, string>;
  stop: () => Promise<void>;
}

interface Candidate {
  name: string;
  importSeconds: (file: string) => number;
  start: () => Promise<Running>;
}

/** Spawns a server, then polls the list endpoint until it answers 200: the time to the first answer. */
async function startCold(
  command: string[],
  env: Record<string, string>,
  urlOf: (output: string) => string | undefined,
  headers: Record<string, string>,
): Promise<Running> {
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, command, { env: { ...process.env, ...env } });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let url: string | undefined;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited:\n${output}`);
    url ??= urlOf(output);
    if (url) {
      const response = await fetch(`${url}/api/v1/audit-log?PageSize=1`, { headers }).catch(() => undefined);
      if (response?.status === 200) {
        await response.arrayBuffer();
        break;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return {
    url,
    pid: child.pid!,
    coldStartMs: performance.now() - started,
    headers,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

function gatehouse(name: string, dataDir: string, env: Record<string, string>): Candidate {
  return {
    name,
    importSeconds(file) {
      const started = performance.now();
      const result = spawnSync(process.execPath, [CLI, 'audit', 'import', file, '--data-dir', dataDir], {
        encoding: 'utf8',
        env: { ...process.env, ...env },
      });
      if (result.status !== 0) throw new Error(result.stderr);
      return (performance.now() - started) / 1000;
    },
    async start() {
      const token = gatehouseToken(dataDir, 'Auditor', '2h', env);
      return startCold(
        [CLI, 'serve', '--data-dir', dataDir, '--port', '0', '--gateway-port', '0', '--no-sign-in-link'],
        { Logging__Level: 'warn', ...FULL_AUDIT_ENV, ...env },
        (output) => /Control Panel:\s+(\S+)/.exec(output)?.[1],
        { Authorization: `Bearer ${token}` },
      );
    },
  };
}

function plainSqlite(dir: string): Candidate {
  // Compiled once to plain JS, so its start pays no TypeScript transform (as Gatehouse's built CLI doesn't).
  const script = join(dir, 'plain-sqlite-audit.mjs');
  buildSync({
    entryPoints: [join(ROOT, 'bench/lib/plain-sqlite-audit.ts')],
    outfile: script,
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    absWorkingDir: ROOT,
  });
  const db = join(dir, 'plain.db');
  return {
    name: 'plain SQLite table',
    importSeconds(file) {
      const result = spawnSync(process.execPath, [script, 'import', file, db], {
        encoding: 'utf8',
        cwd: ROOT,
      });
      if (result.status !== 0) throw new Error(result.stderr);
      return (JSON.parse(result.stdout) as { seconds: number }).seconds;
    },
    start: () => startCold([script, 'serve', db], {}, (output) => /(http:\S+)/.exec(output)?.[1], {}),
  };
}

async function measure(candidate: Candidate, file: string, endMs: number) {
  const importSeconds = candidate.importSeconds(file);
  const server = await candidate.start();
  try {
    const probe = (await (
      await fetch(`${server.url}/api/v1/audit-log?PageSize=200`, { headers: server.headers })
    ).json()) as {
      items: { actionName: string; userName: string }[];
    };
    const actions = [...new Set(probe.items.map((item) => item.actionName))];
    const users = [...new Set(probe.items.map((item) => item.userName))];
    const dayStart = (i: number) => new Date(endMs - (1 + (i % 58)) * DAY).toISOString();
    const dayEnd = (i: number) => new Date(endMs - (i % 58) * DAY).toISOString();
    const shapes: { name: string; query: (i: number) => string }[] = [
      { name: 'no filter', query: () => '' },
      { name: 'one-day range', query: (i) => `startDateTimeUtc=${dayStart(i)}&endDateTimeUtc=${dayEnd(i)}` },
      {
        name: 'one actionName',
        query: (i) => `actionName=${encodeURIComponent(actions[i % actions.length]!)}`,
      },
      { name: 'one userName', query: (i) => `userName=${encodeURIComponent(users[i % users.length]!)}` },
      {
        name: 'all filters combined',
        query: (i) =>
          `startDateTimeUtc=${new Date(endMs - ((i % 50) + 7) * DAY).toISOString()}&endDateTimeUtc=${dayEnd(i % 50)}&actionName=${encodeURIComponent(actions[i % actions.length]!)}&userName=${encodeURIComponent(users[i % users.length]!)}&PageSize=200`,
      },
      { name: 'PageNumber 5000', query: () => 'PageNumber=5000' },
    ];
    const results: Record<string, { p50: number; p95: number; total: number }> = {};
    for (const shape of shapes) {
      const samples: number[] = [];
      let total = 0;
      for (let i = 0; i < SAMPLES + 20; i++) {
        const started = performance.now();
        const response = await fetch(`${server.url}/api/v1/audit-log?${shape.query(i)}`, {
          headers: server.headers,
        });
        const body = (await response.json()) as { totalCount: number };
        if (response.status !== 200) throw new Error(`${candidate.name} ${shape.name}: ${response.status}`);
        if (i >= 20) samples.push(performance.now() - started);
        total = body.totalCount;
      }
      const p = percentiles(samples);
      results[shape.name] = { p50: p.p50, p95: p.p95, total };
    }
    return {
      importRate: COUNT / importSeconds,
      coldStartMs: server.coldStartMs,
      rss: rssOf(server.pid),
      results,
    };
  } finally {
    await server.stop();
  }
}

async function main() {
  await rm(WORK, { recursive: true, force: true });
  await mkdir(WORK, { recursive: true });
  const file = join(WORK, 'entries.ndjson');
  const endMs = Date.now();
  let t = performance.now();
  await writeAuditNdjson(file, { count: COUNT, endMs, seed: 7 });
  console.log(
    `generated ${COUNT.toLocaleString('en')} entries in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );

  const candidates: Candidate[] = [
    gatehouse('Gatehouse, SQLite', join(WORK, 'sqlite-data'), {}),
    plainSqlite(WORK),
  ];
  const postgres = values['skip-postgres'] ? undefined : await startPostgresServer();
  if (postgres) {
    candidates.push(
      gatehouse('Gatehouse, PostgreSQL', join(WORK, 'postgres-data'), {
        ConnectionStrings__Gatehouse: postgres.url,
      }),
    );
  }
  const measured: { name: string; result: Awaited<ReturnType<typeof measure>> }[] = [];
  try {
    for (const candidate of candidates) {
      t = performance.now();
      measured.push({ name: candidate.name, result: await measure(candidate, file, endMs) });
      console.log(`${candidate.name}: measured in ${((performance.now() - t) / 1000).toFixed(0)} s`);
    }
  } finally {
    await postgres?.destroy();
  }

  const names = measured.map((m) => m.name);
  const row = (label: string, cell: (r: (typeof measured)[number]['result']) => string) =>
    `| ${label} | ${measured.map((m) => cell(m.result)).join(' | ')} |`;
  const shapes = Object.keys(measured[0]!.result.results);
  const lines = [
    `Command: npm run bench:audit -- --count ${COUNT} --samples ${SAMPLES}  (${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${process.platform}, load average ${(await import('node:os')).loadavg()[0]!.toFixed(1)})`,
    '',
    `| measure | ${names.join(' | ')} |`,
    `|---|${names.map(() => '---:').join('|')}|`,
    row('import, entries/s', (r) => Math.round(r.importRate).toLocaleString('en')),
    row('cold start to first answer, ms', (r) => r.coldStartMs.toFixed(0)),
    row('RSS after the query mix, MB', (r) => String(Math.round(r.rss / 1024 / 1024))),
    ...shapes.map((shape) =>
      row(`${shape}: p50 / p95 ms (totalCount)`, (r) => {
        const { p50, p95, total } = r.results[shape]!;
        return `${formatMs(p50)} / ${formatMs(p95)} (${total.toLocaleString('en')})`;
      }),
    ),
  ];
  console.log(`\n${lines.join('\n')}`);
}

await main();
