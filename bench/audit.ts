/**
 * npm run bench:audit — the audit trail at 1,000,000 entries, side by side in one run with plain tables:
 *   - sqlite: Gatehouse on its embedded engine (SQLite in the data dir) and a plain SQLite table with three
 *     indexes behind a ~30-line HTTP server (bench/lib/plain-sqlite-audit.ts);
 *   - postgres: Gatehouse on PostgreSQL and a plain PostgreSQL table likewise (bench/lib/plain-postgres-audit.ts),
 *     both on one throwaway cluster on loopback (test/helpers/postgres-server.ts, Debian's binaries).
 * Each pair imports the same generated NDJSON (PostgreSQL: then VACUUM ANALYZE of both databases, as autovacuum
 * would soon do), then starts cold `--rounds` times (the candidates alternating),
 * then answers the same query shapes over HTTP with both servers up, each sample sent to one candidate and then
 * the other, so a burst of load from elsewhere hits both alike. Ratios are Gatehouse ÷ plain table.
 * Then, per engine, what tamper evidence costs (bench/lib/audit-chain-bench.ts): the same file imported with the
 * chain and without (in process, fresh databases, alternating), and a verify of all N chained entries.
 *
 *   npm run bench:audit -- [--engine sqlite|postgres|both] [--count 1000000] [--samples 200] [--rounds 3]
 *                          [--only pair|chain]
 */
import { loadavg } from 'node:os';
import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startPostgresServer, type PostgresServer } from '../test/helpers/postgres-server.js';
import {
  gatehouseCandidate,
  plainPostgresCandidate,
  plainSqliteCandidate,
  rssOf,
  type AuditCandidate,
  type RunningCandidate,
} from './lib/audit-candidates.js';
import { writeAuditNdjson } from './lib/audit-dataset.js';
import { CLI, ROOT } from './lib/gatehouse-serve.js';
import { formatMs, percentiles } from './lib/stats.js';
import { chainReport, freshSqlite, measureChaining } from './lib/audit-chain-bench.js';
import { createLogger } from '../src-server/core/logging/logger.js';
import { Database } from '../src-server/core/storage/database.js';

const { values } = parseArgs({
  options: {
    engine: { type: 'string', default: 'both' },
    count: { type: 'string' },
    samples: { type: 'string' },
    rounds: { type: 'string' },
    only: { type: 'string' },
  },
});
const ONLY = values.only;
if (ONLY !== undefined && ONLY !== 'pair' && ONLY !== 'chain') throw new Error('--only pair|chain');
const ENGINE = values.engine;
if (!['sqlite', 'postgres', 'both'].includes(ENGINE)) throw new Error('--engine sqlite|postgres|both');
const COUNT = Number(values.count ?? 1_000_000);
const SAMPLES = Number(values.samples ?? 200);
const ROUNDS = Number(values.rounds ?? 3);
const WARM_UP = 20;
const WORK = join(ROOT, 'bench/.data/audit');
const DAY = 86_400_000;

if (ONLY !== 'chain' && !existsSync(CLI)) throw new Error('Build the server first: npm run build:server');

interface Shape {
  name: string;
  query: (i: number) => string;
  /** Measured on Gatehouse only: the plain-table peer has no such filter (full-text search). */
  gatehouseOnly?: boolean;
  /** The endpoint under /api/v1/audit-log; the list when absent. */
  path?: string;
}

/** The HTTP query shapes: the issue's, and the console's (its page sizes are 30, 50, 100 and 200). */
function queryShapes(
  endMs: number,
  actions: string[],
  users: string[],
  { words, pairs }: { words: string[]; pairs: string[] },
): Shape[] {
  const iso = (ms: number) => new Date(ms).toISOString();
  const action = (i: number) => encodeURIComponent(actions[i % actions.length]!);
  const user = (i: number) => encodeURIComponent(users[i % users.length]!);
  // Day boundaries of the generated 60 days, not midnight: a range's ends fall inside days, as a user's do.
  const dayEnd = (i: number) => endMs - (i % 58) * DAY;
  return [
    { name: 'no filter', query: () => '' },
    {
      name: 'one-day range',
      query: (i) => `startDateTimeUtc=${iso(dayEnd(i) - DAY)}&endDateTimeUtc=${iso(dayEnd(i))}`,
    },
    { name: 'one actionName', query: (i) => `actionName=${action(i)}` },
    { name: 'one userName', query: (i) => `userName=${user(i)}` },
    {
      name: 'all filters combined',
      query: (i) =>
        `startDateTimeUtc=${iso(endMs - ((i % 50) + 7) * DAY)}&endDateTimeUtc=${iso(dayEnd(i % 50))}` +
        `&actionName=${action(i)}&userName=${user(i)}&PageSize=200`,
    },
    { name: 'deep page (PageNumber 5000)', query: () => 'PageNumber=5000' },
    {
      name: 'console: last 7 days, 100 a page, page 3',
      query: (i) => `startDateTimeUtc=${iso(endMs - 7 * DAY - (i % 10) * 60_000)}&PageSize=100&PageNumber=3`,
    },
    {
      name: 'console: one actionName, 7 days, 50 a page',
      query: (i) =>
        `actionName=${action(i)}&startDateTimeUtc=${iso(endMs - 7 * DAY)}&endDateTimeUtc=${iso(endMs)}&PageSize=50`,
    },
    // Issue 14: full-text search over the whole trail, p95 ≤ 100 ms at 1M entries. Words of the entries' own values.
    {
      name: 'search: one word of the parameters',
      query: (i) => `search=${encodeURIComponent(words[i % words.length]!)}`,
      gatehouseOnly: true,
    },
    {
      name: 'search: two words, 7 days, 50 a page',
      query: (i) =>
        `search=${encodeURIComponent(pairs[i % pairs.length]!)}` +
        `&startDateTimeUtc=${iso(endMs - 7 * DAY)}&PageSize=50`,
      gatehouseOnly: true,
    },
    {
      name: 'timeline: 30 days per day, by action',
      path: '/timeline',
      query: (i) =>
        `startDateTimeUtc=${iso(dayEnd(i % 28) - 30 * DAY)}&endDateTimeUtc=${iso(dayEnd(i % 28))}&interval=day`,
    },
    {
      name: 'timeline: whole trail per day, one userName, by action',
      path: '/timeline',
      query: (i) => `userName=${user(i)}&interval=day`,
    },
    {
      name: 'timeline: 24 hours per hour, by user',
      path: '/timeline',
      query: (i) =>
        `startDateTimeUtc=${iso(dayEnd(i) - DAY)}&endDateTimeUtc=${iso(dayEnd(i))}&interval=hour&splitBy=user`,
    },
  ];
}

interface Measured {
  name: string;
  importRate: number;
  coldStartMs: number[];
  rss: number;
  shapes: Record<string, { p50: number; p95: number; total: number }>;
}

async function get(server: RunningCandidate, query: string, path = ''): Promise<{ totalCount: number }> {
  const response = await fetch(`${server.url}/api/v1/audit-log${path}?${query}`, { headers: server.headers });
  const body = (await response.json()) as { totalCount?: number; total?: number };
  if (response.status !== 200) throw new Error(`${response.status}: ${JSON.stringify(body)}`);
  // A timeline answers its `total`: the matching entries, as a list's totalCount.
  return { totalCount: body.totalCount ?? body.total ?? Number.NaN };
}

/** One engine's pair: import each, cold starts alternating, then the query mix interleaved sample by sample. */
async function measurePair(
  pair: AuditCandidate[],
  file: string,
  endMs: number,
  afterImport?: () => Promise<void>,
): Promise<Measured[]> {
  const measured: Measured[] = pair.map((c) => ({
    name: c.name,
    importRate: 0,
    coldStartMs: [],
    rss: 0,
    shapes: {},
  }));
  for (const [k, candidate] of pair.entries()) {
    measured[k]!.importRate = COUNT / candidate.importSeconds(file);
    console.log(`${candidate.name}: imported at ${Math.round(measured[k]!.importRate)} entries/s`);
  }
  await afterImport?.();
  for (let round = 0; round < ROUNDS; round++) {
    for (const [k, candidate] of pair.entries()) {
      const server = await candidate.start();
      measured[k]!.coldStartMs.push(server.coldStartMs);
      await server.stop();
    }
  }
  const servers: RunningCandidate[] = [];
  try {
    for (const candidate of pair) servers.push(await candidate.start());
    const probe = (await (
      await fetch(`${servers[0]!.url}/api/v1/audit-log?PageSize=200`, { headers: servers[0]!.headers })
    ).json()) as { items: { actionName: string; userName: string; parameters: Record<string, unknown> }[] };
    const actions = [...new Set(probe.items.map((item) => item.actionName))];
    const users = [...new Set(probe.items.map((item) => item.userName))];
    // Words of the entries' own string values; the pairs come from one entry each, so two-word searches match.
    const wordsOf = (item: { parameters: Record<string, unknown> }) =>
      Object.values(item.parameters)
        .filter((value): value is string => typeof value === 'string')
        .flatMap((value) => value.split(/[^\p{L}\p{N}]+/u).filter((word) => word.length >= 4));
    const words = [...new Set(probe.items.flatMap(wordsOf))].slice(0, 20);
    const pairs = probe.items
      .map(wordsOf)
      .filter((found) => found.length >= 2)
      .map((found) => `${found[0]!} ${found.at(-1)!}`)
      .slice(0, 20);
    const searches = {
      words: words.length > 0 ? words : ['none'],
      pairs: pairs.length > 0 ? pairs : ['none'],
    };
    for (const shape of queryShapes(endMs, actions, users, searches)) {
      const samples = servers.map(() => [] as number[]);
      const totals = servers.map(() => 0);
      for (let i = 0; i < SAMPLES + WARM_UP; i++) {
        // Alternate which candidate goes first, so neither always follows the other's cache misses.
        const order = i % 2 === 0 ? servers.keys() : [...servers.keys()].reverse();
        for (const k of order) {
          if (shape.gatehouseOnly && k !== 0) continue;
          const started = performance.now();
          const { totalCount } = await get(servers[k]!, shape.query(i), shape.path);
          if (i >= WARM_UP) samples[k]!.push(performance.now() - started);
          totals[k] = totalCount;
        }
      }
      // Gatehouse's count includes the entries it records itself (each start, each token): a few dozen at the
      // newest end of the trail. A real mismatch would be far larger.
      if (!shape.gatehouseOnly && (totals[0]! < totals[1]! || totals[0]! - totals[1]! > 100)) {
        throw new Error(`${shape.name}: the candidates disagree on totalCount (${totals.join(' vs ')})`);
      }
      for (const [k, m] of measured.entries()) {
        if (samples[k]!.length === 0) continue;
        const { p50, p95 } = percentiles(samples[k]!);
        m.shapes[shape.name] = { p50, p95, total: totals[k]! };
      }
    }
    for (const [k, server] of servers.entries()) measured[k]!.rss = rssOf(server.pid);
  } finally {
    for (const server of servers) await server.stop();
  }
  return measured;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

function report(title: string, [gatehouse, plain]: Measured[], loads: string): string {
  const g = gatehouse!;
  const p = plain!;
  const lines = [
    `### ${title}`,
    '',
    `Load average (1 min) at start and end: ${loads}`,
    '',
    `| measure | ${g.name} | ${p.name} | ratio |`,
    '|---|---:|---:|---:|',
    `| import, entries/s | ${Math.round(g.importRate).toLocaleString('en')} | ${Math.round(p.importRate).toLocaleString('en')} | ${ratio(g.importRate, p.importRate)} |`,
    `| cold start to first answer, ms (median of ${ROUNDS}; all) | ${median(g.coldStartMs).toFixed(0)} (${g.coldStartMs.map((ms) => ms.toFixed(0)).join(', ')}) | ${median(p.coldStartMs).toFixed(0)} (${p.coldStartMs.map((ms) => ms.toFixed(0)).join(', ')}) | ${ratio(median(g.coldStartMs), median(p.coldStartMs))} |`,
    `| RSS after the query mix, MB | ${(g.rss / 2 ** 20).toFixed(0)} | ${(p.rss / 2 ** 20).toFixed(0)} | ${ratio(g.rss, p.rss)} |`,
    '',
    `| query shape (totalCount of the last sample) | ${g.name} p50 / p95 ms | ${p.name} p50 / p95 ms | p95 ratio |`,
    '|---|---:|---:|---:|',
    ...Object.keys(g.shapes).map((shape) => {
      const a = g.shapes[shape]!;
      const b = p.shapes[shape];
      const peer = b ? `${formatMs(b.p50)} / ${formatMs(b.p95)}` : 'no such filter';
      return `| ${shape} (${a.total.toLocaleString('en')}) | ${formatMs(a.p50)} / ${formatMs(a.p95)} | ${peer} | ${b ? ratio(a.p95, b.p95) : '—'} |`;
    }),
  ];
  return lines.join('\n');
}

async function createDatabases(server: PostgresServer): Promise<{ gatehouse: string; plain: string }> {
  const client = new pg.Client({ connectionString: server.url });
  await client.connect();
  await client.query('create database gatehouse');
  await client.query('create database plain');
  await client.end();
  const base = server.url.replace(/\/postgres$/, '');
  return { gatehouse: `${base}/gatehouse`, plain: `${base}/plain` };
}

async function main() {
  await rm(WORK, { recursive: true, force: true });
  await mkdir(WORK, { recursive: true });
  const file = join(WORK, 'entries.ndjson');
  const endMs = Date.now();
  const generating = performance.now();
  await writeAuditNdjson(file, { count: COUNT, endMs, seed: 7 });
  console.log(
    `generated ${COUNT.toLocaleString('en')} entries in ${((performance.now() - generating) / 1000).toFixed(1)} s`,
  );
  const load = () => loadavg()[0]!.toFixed(1);
  const sections: string[] = [];
  if (ENGINE !== 'postgres') {
    const before = load();
    const pair = [
      gatehouseCandidate('Gatehouse, SQLite', join(WORK, 'sqlite-data'), {}),
      plainSqliteCandidate(WORK),
    ];
    if (ONLY !== 'chain') {
      const measured = await measurePair(pair, file, endMs);
      sections.push(report('Embedded: SQLite', measured, `${before} → ${load()}`));
    }
    if (ONLY !== 'pair')
      sections.push(chainReport('Embedded: SQLite', await measureChaining(file, freshSqlite(WORK))));
  }
  if (ENGINE !== 'sqlite') {
    const before = load();
    const postgres = await startPostgresServer();
    try {
      const urls = await createDatabases(postgres);
      const pair = [
        gatehouseCandidate('Gatehouse, PostgreSQL', join(WORK, 'postgres-data'), {
          ConnectionStrings__Gatehouse: urls.gatehouse,
        }),
        plainPostgresCandidate(WORK, urls.plain),
      ];
      // What autovacuum does to freshly loaded tables before long: the visibility map (index-only scans) and
      // the planner's statistics, for both databases alike.
      const vacuum = async () => {
        for (const url of [urls.gatehouse, urls.plain]) {
          const client = new pg.Client({ connectionString: url });
          await client.connect();
          await client.query('vacuum analyze');
          await client.end();
        }
      };
      if (ONLY !== 'chain') {
        const measured = await measurePair(pair, file, endMs, vacuum);
        sections.push(report('Server mode: PostgreSQL on loopback', measured, `${before} → ${load()}`));
      }
      if (ONLY !== 'pair') {
        const openFresh = async (label: string) => {
          const client = new pg.Client({ connectionString: postgres.url });
          await client.connect();
          await client.query(`create database chain_${label.replace(/-/g, '_')}`);
          await client.end();
          return Database.open({
            dataDir: join(WORK, `pg-chain-${label}`),
            connectionString: postgres.url.replace(/\/postgres$/, `/chain_${label.replace(/-/g, '_')}`),
            logger: createLogger('silent'),
          });
        };
        sections.push(
          chainReport('Server mode: PostgreSQL on loopback', await measureChaining(file, openFresh)),
        );
      }
    } finally {
      await postgres.destroy();
    }
  }
  const command = `npm run bench:audit -- --engine ${ENGINE} --count ${COUNT} --samples ${SAMPLES} --rounds ${ROUNDS}${ONLY ? ` --only ${ONLY}` : ''}`;
  console.log(
    `\nCommand: \`${command}\` (${new Date().toISOString().slice(0, 16)}Z, Node ${process.version}, ${process.platform})\n\n${sections.join('\n\n')}`,
  );
}

await main();
