/**
 * npm run bench:audit — the audit trail at scale, end to end:
 * generates N realistic entries (default 1,000,000) as NDJSON, imports them with `gatehouse audit import`,
 * starts `gatehouse serve` cold on that data dir, and measures query latency over real HTTP.
 *
 *   npm run bench:audit -- [--count 1000000] [--samples 200]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { writeAuditNdjson } from './lib/audit-dataset.js';
import { CLI, FULL_AUDIT_ENV, ROOT, gatehouseToken, startGatehouseServe } from './lib/gatehouse-serve.js';
import { formatMs, percentiles } from './lib/stats.js';

const { values } = parseArgs({ options: { count: { type: 'string' }, samples: { type: 'string' } } });
const COUNT = Number(values.count ?? 1_000_000);
const SAMPLES = Number(values.samples ?? 200);
const WORK = join(ROOT, 'bench/.data/audit');
const DAY = 86_400_000;

if (!existsSync(CLI)) throw new Error('Build the server first: npm run build:server');

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
}

interface QueryShape {
  name: string;
  query: (i: number) => string;
}

async function main() {
  await rm(WORK, { recursive: true, force: true });
  await mkdir(WORK, { recursive: true });
  const dataDir = join(WORK, 'data');
  const file = join(WORK, 'entries.ndjson');
  const endMs = Date.now();

  let t = performance.now();
  await writeAuditNdjson(file, { count: COUNT, endMs, seed: 7 });
  console.log(
    `generated ${COUNT.toLocaleString('en')} entries in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );

  t = performance.now();
  const imported = spawnSync(process.execPath, [CLI, 'audit', 'import', file, '--data-dir', dataDir], {
    encoding: 'utf8',
  });
  if (imported.status !== 0) throw new Error(imported.stderr);
  const importSeconds = (performance.now() - t) / 1000;
  console.log(imported.stdout.trim());

  // Retention would trim the generated agent events to 1,000 per agent group; queries should see all N entries.
  const server = await startGatehouseServe(dataDir, { env: FULL_AUDIT_ENV });
  const rss = rssOf(server.pid);
  const token = gatehouseToken(dataDir, 'Auditor');
  const headers = { Authorization: `Bearer ${token}` };

  const facets = (await (await fetch(`${server.url}/api/v1/audit-log?PageSize=200`, { headers })).json()) as {
    items: { actionName: string; userName: string }[];
  };
  const actions = [...new Set(facets.items.map((i) => i.actionName))];
  const users = [...new Set(facets.items.map((i) => i.userName))];
  const dayStart = (i: number) => new Date(endMs - (1 + (i % 58)) * DAY).toISOString();
  const dayEnd = (i: number) => new Date(endMs - (i % 58) * DAY).toISOString();
  const shapes: QueryShape[] = [
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

  const rows: string[] = [];
  for (const shape of shapes) {
    const samples: number[] = [];
    let total = 0;
    for (let i = 0; i < SAMPLES + 20; i++) {
      const started = performance.now();
      const response = await fetch(`${server.url}/api/v1/audit-log?${shape.query(i)}`, { headers });
      const body = (await response.json()) as { totalCount: number };
      if (response.status !== 200) throw new Error(`${shape.name}: ${response.status}`);
      if (i >= 20) samples.push(performance.now() - started);
      total = body.totalCount;
    }
    const p = percentiles(samples);
    rows.push(`| ${shape.name} | ${formatMs(p.p50)} | ${formatMs(p.p95)} | ${total.toLocaleString('en')} |`);
  }
  await server.stop();

  const lines = [
    `Command: npm run bench:audit -- --count ${COUNT}  (${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${process.platform})`,
    '',
    '| measure | value | target |',
    '|---|---|---|',
    `| import rate (gatehouse audit import, NDJSON) | ${Math.round(COUNT / importSeconds).toLocaleString('en')} entries/s | ≥ 50,000/s |`,
    `| cold start of gatehouse serve with ${COUNT.toLocaleString('en')} entries | ${(server.coldStartMs / 1000).toFixed(2)} s | ≤ 3 s |`,
    `| RSS after start | ${Math.round(rss / 1024 / 1024)} MB | ≤ 400 MB |`,
    '',
    `GET /api/v1/audit-log over HTTP (keep-alive, sequential, ${SAMPLES} samples each after 20 warm-up):`,
    '',
    '| query shape | p50 ms | p95 ms (target ≤ 20) | totalCount (last) |',
    '|---|---|---|---|',
    ...rows,
  ];
  console.log(`\n${lines.join('\n')}`);
}

await main();
