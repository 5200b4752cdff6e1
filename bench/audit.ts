/**
 * npm run bench:audit — the audit trail at 1,000,000 entries, side by side in one run with plain tables:
 *   - sqlite: Gatehouse on its embedded engine (SQLite in the data dir) and a plain SQLite table with three
 *     indexes behind a ~30-line HTTP server (bench/lib/plain-sqlite-audit.ts);
 *   - postgres: Gatehouse on PostgreSQL and a plain PostgreSQL table likewise (bench/lib/plain-postgres-audit.ts),
 *     both on one throwaway cluster on loopback (test/helpers/postgres-server.ts, Debian's binaries).
 * Each pair imports the same generated NDJSON (PostgreSQL: then VACUUM ANALYZE of both databases, as autovacuum
 * would soon do), then starts cold `--rounds` times (the candidates alternating),
 * then answers the same query shapes over HTTP with both servers up, each sample sent to one candidate and then
 * the other, so a burst of load from elsewhere hits both alike. Ratios are Gatehouse ÷ plain table. The searches
 * are measured twice: as they are, and each just after a write to the trail (untimed: a saved filter created and
 * deleted, `bench/lib/audit-trail-write.ts`), what the first search after a live entry costs once the full-text
 * index has changed.
 * Then, per engine, what tamper evidence costs (bench/lib/audit-chain-bench.ts): the same file imported with the
 * chain and without (in process, fresh databases, alternating), and a verify of all N chained entries.
 *
 * With `--keep`, bench/.data/audit stays, and a later run with `--keep` and the same count reuses its generated file
 * and the imports (no import rate then): for probing query shapes again after a change. The PostgreSQL cluster then
 * lives in bench/.data/audit/postgres-cluster, stopped at the end; its URL is printed for psql. `--baseline CLI`
 * adds another build of Gatehouse (e.g. a worktree of main's out/server/cli.js) to the SQLite pair, queried in the
 * same interleaved loop, so a change is measured side by side with what it replaces.
 *
 *   npm run bench:audit -- [--engine sqlite|postgres|both] [--count 1000000] [--samples 200] [--rounds 3]
 *                          [--only pair|chain] [--keep] [--baseline path/to/out/server/cli.js]
 */
import { loadavg } from 'node:os';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
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
import { shapesOfTrail } from './lib/audit-query-shapes.js';
import { CLI, ROOT } from './lib/gatehouse-serve.js';
import { formatMs, percentiles } from './lib/stats.js';
import { timedGet } from './lib/timed-get.js';
import { ENTRIES_PER_WRITE, writeToTrail } from './lib/audit-trail-write.js';
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
    keep: { type: 'boolean', default: false },
    baseline: { type: 'string' },
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

if (values.baseline !== undefined && !existsSync(values.baseline))
  throw new Error(`--baseline: no such file ${values.baseline}`);
if (ONLY !== 'chain' && !existsSync(CLI)) throw new Error('Build the server first: npm run build:server');

interface Measured {
  name: string;
  importRate: number;
  coldStartMs: number[];
  rss: number;
  /** Per shape: wall-clock percentiles, and the server's CPU time (user + system) per request. */
  shapes: Record<string, { p50: number; p95: number; cpuMs: number; total: number }>;
}

/** A list's totalCount (a timeline's `total`) and the request's time to the answer's last byte (`timedGet`). */
async function get(
  server: RunningCandidate,
  query: string,
  path = '',
): Promise<{ totalCount: number; ms: number }> {
  const { status, body, ms } = await timedGet(
    `${server.url}/api/v1/audit-log${path}?${query}`,
    server.headers,
  );
  const parsed = JSON.parse(body.toString('utf8')) as { totalCount?: number; total?: number };
  if (status !== 200) throw new Error(`${status}: ${JSON.stringify(parsed)}`);
  // A timeline answers its `total`: the matching entries, as a list's totalCount.
  return { totalCount: parsed.totalCount ?? parsed.total ?? Number.NaN, ms };
}

/** A process's CPU time (user + system) so far, from /proc: a measure that load from elsewhere barely moves. */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime, in clock ticks of 10 ms.
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * One engine's candidates (Gatehouse first, the plain table second): import each (unless `imported` says a kept
 * run did), cold starts alternating, then the query mix interleaved sample by sample.
 */
async function measurePair(
  pair: AuditCandidate[],
  file: string,
  endMs: number,
  {
    afterImport,
    imported,
    written = {},
  }: {
    afterImport?: () => Promise<void>;
    imported?: Set<string>;
    /** Per candidate, the entries the shapes measured after a write have added to its trail (this run and kept ones). */
    written?: Record<string, number>;
  } = {},
): Promise<Measured[]> {
  const measured: Measured[] = pair.map((c) => ({
    name: c.name,
    importRate: Number.NaN,
    coldStartMs: [],
    rss: 0,
    shapes: {},
  }));
  for (const [k, candidate] of pair.entries()) {
    if (imported?.has(candidate.name)) continue;
    measured[k]!.importRate = COUNT / candidate.importSeconds(file);
    delete written[candidate.name];
    console.log(`${candidate.name}: imported at ${Math.round(measured[k]!.importRate)} entries/s`);
    imported?.add(candidate.name);
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
    for (const shape of await shapesOfTrail(servers[0]!.url, servers[0]!.headers, endMs)) {
      const samples = servers.map(() => [] as number[]);
      const cpuMs = servers.map(() => 0);
      const totals = servers.map(() => 0);
      // The plain table (the second candidate) has no such filter.
      const skipped = (k: number) => shape.gatehouseOnly === true && k === 1;
      for (let i = 0; i < SAMPLES + WARM_UP; i++) {
        // Alternate which candidate goes first, so neither always follows the other's cache misses.
        const order = i % 2 === 0 ? servers.keys() : [...servers.keys()].reverse();
        for (const k of order) {
          if (skipped(k)) continue;
          if (shape.afterWrite) {
            await writeToTrail(servers[k]!.url, servers[k]!.headers, i);
            written[pair[k]!.name] = (written[pair[k]!.name] ?? 0) + ENTRIES_PER_WRITE;
          }
          const cpuBefore = cpuMsOf(servers[k]!.pid);
          const { totalCount, ms } = await get(servers[k]!, shape.query(i), shape.path);
          if (i >= WARM_UP) {
            samples[k]!.push(ms);
            cpuMs[k]! += cpuMsOf(servers[k]!.pid) - cpuBefore;
          }
          totals[k] = totalCount;
        }
      }
      // Gatehouse's count includes the entries it records itself (each start, each token): a few dozen at the
      // newest end of the trail, and those the writes before some shapes added. A real mismatch would be far larger.
      for (const k of servers.keys()) {
        if (k === 1 || shape.gatehouseOnly) continue;
        const own = 100 + (written[pair[k]!.name] ?? 0);
        if (totals[k]! < totals[1]! || totals[k]! - totals[1]! > own)
          throw new Error(`${shape.name}: the candidates disagree on totalCount (${totals.join(' vs ')})`);
      }
      for (const [k, m] of measured.entries()) {
        if (samples[k]!.length === 0) continue;
        const { p50, p95 } = percentiles(samples[k]!);
        m.shapes[shape.name] = { p50, p95, cpuMs: cpuMs[k]! / samples[k]!.length, total: totals[k]! };
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

/**
 * The candidates side by side: Gatehouse first, the plain table second, a baseline build third when measured.
 * Ratios are Gatehouse ÷ plain table (and ÷ baseline).
 */
function report(title: string, measured: Measured[], loads: string): string {
  const [g, p, base] = measured as [Measured, Measured, Measured | undefined];
  const shown = base ? [g, p, base] : [g, p];
  const cells = (of: (m: Measured) => string) => shown.map(of).join(' | ');
  const ratios = (of: (m: Measured) => number) =>
    [p, ...(base ? [base] : [])].map((other) => ratio(of(g), of(other))).join(' | ');
  const ratioHeads = `${g.name} ÷ ${p.name}${base ? ` | ÷ ${base.name}` : ''}`;
  const align = '|---|' + shown.map(() => '---:|').join('') + (base ? '---:|---:|' : '---:|');
  const rate = (m: Measured) =>
    Number.isNaN(m.importRate) ? 'kept from an earlier run' : Math.round(m.importRate).toLocaleString('en');
  const starts = (m: Measured) =>
    `${median(m.coldStartMs).toFixed(0)} (${m.coldStartMs.map((ms) => ms.toFixed(0)).join(', ')})`;
  const lines = [
    `### ${title}`,
    '',
    `Load average (1 min) at start and end: ${loads}`,
    '',
    `| measure | ${cells((m) => m.name)} | ${ratioHeads} |`,
    align,
    `| import, entries/s | ${cells(rate)} | ${ratios((m) => m.importRate)} |`,
    `| cold start to first answer, ms (median of ${ROUNDS}; all) | ${cells(starts)} | ${ratios((m) => median(m.coldStartMs))} |`,
    `| RSS after the query mix, MB | ${cells((m) => (m.rss / 2 ** 20).toFixed(0))} | ${ratios((m) => m.rss)} |`,
    '',
    "Per query shape: wall-clock p50 / p95 ms, then the server's CPU time per request (ms, 10 ms ticks summed over",
    'the samples); ratios of p95.',
    '',
    `| query shape (totalCount of the last sample) | ${cells((m) => `${m.name} p50 / p95 · CPU`)} | ${ratioHeads} |`,
    align,
    ...Object.keys(g.shapes).map((shape) => {
      const timing = (m: Measured) => {
        const t = m.shapes[shape];
        return t ? `${formatMs(t.p50)} / ${formatMs(t.p95)} · ${formatMs(t.cpuMs)}` : 'no such filter';
      };
      const p95Ratios = [p, ...(base ? [base] : [])]
        .map((other) => (other.shapes[shape] ? ratio(g.shapes[shape]!.p95, other.shapes[shape].p95) : '—'))
        .join(' | ');
      return `| ${shape} (${g.shapes[shape]!.total.toLocaleString('en')}) | ${cells(timing)} | ${p95Ratios} |`;
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
  return databaseUrls(server);
}

function databaseUrls(server: PostgresServer): { gatehouse: string; plain: string } {
  const base = server.url.replace(/\/postgres$/, '');
  return { gatehouse: `${base}/gatehouse`, plain: `${base}/plain` };
}

interface KeptDataset {
  count: number;
  endMs: number;
  /** The candidates whose imports are in the directory. */
  imported: string[];
  /** Per candidate, the entries written to its trail by the shapes measured after a write. */
  written?: Record<string, number>;
}

const KEPT = join(WORK, 'dataset.json');
const POSTGRES_GATEHOUSE = 'Gatehouse, PostgreSQL';
const POSTGRES_PLAIN = 'plain PostgreSQL table';

/** The generated file of a kept run of the same count, or a fresh one (the directory emptied first). */
async function dataset(
  file: string,
): Promise<{ endMs: number; imported: Set<string>; written: Record<string, number> }> {
  if (values.keep && existsSync(KEPT)) {
    const kept = JSON.parse(await readFile(KEPT, 'utf8')) as KeptDataset;
    if (kept.count === COUNT) {
      console.log(`reusing the ${COUNT.toLocaleString('en')} entries kept in ${WORK}`);
      return { endMs: kept.endMs, imported: new Set(kept.imported), written: kept.written ?? {} };
    }
  }
  await rm(WORK, { recursive: true, force: true });
  await mkdir(WORK, { recursive: true });
  const endMs = Date.now();
  const generating = performance.now();
  await writeAuditNdjson(file, { count: COUNT, endMs, seed: 7 });
  console.log(
    `generated ${COUNT.toLocaleString('en')} entries in ${((performance.now() - generating) / 1000).toFixed(1)} s`,
  );
  return { endMs, imported: new Set(), written: {} };
}

async function main() {
  const file = join(WORK, 'entries.ndjson');
  const { endMs, imported, written } = await dataset(file);
  const keep = async () => {
    if (!values.keep) return;
    const kept: KeptDataset = { count: COUNT, endMs, imported: [...imported], written };
    await writeFile(KEPT, JSON.stringify(kept));
  };
  const load = () => loadavg()[0]!.toFixed(1);
  const sections: string[] = [];
  if (ENGINE !== 'postgres') {
    const before = load();
    const pair = [
      gatehouseCandidate('Gatehouse, SQLite', join(WORK, 'sqlite-data'), {}),
      plainSqliteCandidate(WORK),
      ...(values.baseline
        ? [gatehouseCandidate('baseline build', join(WORK, 'baseline-data'), {}, values.baseline)]
        : []),
    ];
    if (ONLY !== 'chain') {
      const measured = await measurePair(pair, file, endMs, { imported, written });
      await keep();
      sections.push(report('Embedded: SQLite', measured, `${before} → ${load()}`));
    }
    if (ONLY !== 'pair')
      sections.push(chainReport('Embedded: SQLite', await measureChaining(file, freshSqlite(WORK))));
    await keep();
  }
  if (ENGINE !== 'sqlite') {
    const before = load();
    // With --keep, the cluster lives in WORK and a later run reuses its databases; otherwise it is new each run.
    const cluster = join(WORK, 'postgres-cluster');
    const reusing = values.keep && imported.has(POSTGRES_GATEHOUSE) && existsSync(join(cluster, 'data'));
    if (!reusing) {
      imported.delete(POSTGRES_GATEHOUSE);
      imported.delete(POSTGRES_PLAIN);
      await rm(join(WORK, 'postgres-data'), { recursive: true, force: true });
      await rm(cluster, { recursive: true, force: true });
    }
    const postgres = await startPostgresServer(values.keep ? { dir: cluster } : {});
    try {
      const urls = reusing ? databaseUrls(postgres) : await createDatabases(postgres);
      if (values.keep) console.log(`PostgreSQL kept in ${cluster}: ${urls.gatehouse}`);
      const pair = [
        gatehouseCandidate(POSTGRES_GATEHOUSE, join(WORK, 'postgres-data'), {
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
        const measured = await measurePair(pair, file, endMs, { afterImport: vacuum, imported, written });
        await keep();
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
      if (values.keep) postgres.stop();
      else await postgres.destroy();
    }
  }
  const command = `npm run bench:audit -- --engine ${ENGINE} --count ${COUNT} --samples ${SAMPLES} --rounds ${ROUNDS}${ONLY ? ` --only ${ONLY}` : ''}${values.keep ? ' --keep' : ''}${values.baseline ? ` --baseline ${values.baseline}` : ''}`;
  console.log(
    `\nCommand: \`${command}\` (${new Date().toISOString().slice(0, 16)}Z, Node ${process.version}, ${process.platform})\n\n${sections.join('\n\n')}`,
  );
}

await main();
