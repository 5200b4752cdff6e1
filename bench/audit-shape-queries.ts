/**
 * Each query of one bench:audit shape apart: a Gatehouse server over a kept data dir (bench/.data/audit, e.g. its
 * PostgreSQL one with `--env ConnectionStrings__Gatehouse=…`), every distinct query of the shape sent `--repeat`
 * times in turns, and each one's median and worst wall time, slowest first. A shape's p95 that comes from a few of
 * its queries shows here as those queries, ready for EXPLAIN. With `--baseline-cli` (and its own data dir and
 * settings, e.g. a copy of the database), another build answers each query right after this one (the order
 * alternating), so a change is measured side by side with what it replaces on a busy machine.
 *
 *   tsx bench/audit-shape-queries.ts --shape 'all filters' [--repeat 9] [--queries 60] [--data-dir DIR] [--cli CLI]
 *       [--env Section__Key=value]... [--baseline-cli CLI --baseline-data-dir DIR [--baseline-env K=V]...]
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { shapesOfTrail } from './lib/audit-query-shapes.js';
import {
  CLI,
  FULL_AUDIT_ENV,
  ROOT,
  gatehouseToken,
  startGatehouseServe,
  type ServedGatehouse,
} from './lib/gatehouse-serve.js';
import { percentiles } from './lib/stats.js';
import { timedGet } from './lib/timed-get.js';

const { values } = parseArgs({
  options: {
    shape: { type: 'string', default: 'all filters' },
    repeat: { type: 'string', default: '9' },
    /** bench:audit sends queries 0 … samples + 19 of a shape (20 to warm up). */
    queries: { type: 'string', default: '60' },
    'data-dir': { type: 'string', default: join(ROOT, 'bench/.data/audit/sqlite-data') },
    cli: { type: 'string', default: CLI },
    env: { type: 'string', multiple: true, default: [] },
    'baseline-cli': { type: 'string' },
    'baseline-data-dir': { type: 'string' },
    'baseline-env': { type: 'string', multiple: true, default: [] },
  },
});
const REPEAT = Number(values.repeat);
const endMs = (
  JSON.parse(readFileSync(join(ROOT, 'bench/.data/audit/dataset.json'), 'utf8')) as { endMs: number }
).endMs;
const settings = (pairs: string[]) => ({
  ...FULL_AUDIT_ENV,
  ...Object.fromEntries(pairs.map((pair) => pair.split('=', 2) as [string, string])),
});

interface Candidate {
  name: string;
  cli: string;
  dataDir: string;
  env: Record<string, string>;
}
const candidates: Candidate[] = [
  { name: 'this build', cli: values.cli, dataDir: values['data-dir'], env: settings(values.env) },
];
if (values['baseline-cli'] !== undefined) {
  if (values['baseline-data-dir'] === undefined) throw new Error('--baseline-cli needs --baseline-data-dir');
  candidates.push({
    name: 'baseline',
    cli: values['baseline-cli'],
    dataDir: values['baseline-data-dir'],
    env: settings(values['baseline-env']),
  });
}

const servers: { served: ServedGatehouse; headers: Record<string, string> }[] = [];
try {
  for (const { cli, dataDir, env } of candidates) {
    const token = gatehouseToken(dataDir, 'Auditor', '2h', env, cli);
    servers.push({
      served: await startGatehouseServe(dataDir, { env, cli }),
      headers: { Authorization: `Bearer ${token}` },
    });
  }
  const [first] = servers;
  const shape = (await shapesOfTrail(first!.served.url, first!.headers, endMs)).find((s) =>
    s.name.includes(values.shape),
  );
  if (!shape) throw new Error(`No shape named like ${values.shape}`);
  // The distinct queries of the shape in bench:audit's order (it cycles over them).
  const queries = [...new Set(Array.from({ length: Number(values.queries) }, (_, i) => shape.query(i)))];
  const times = servers.map(() => queries.map((): number[] => []));
  const counts = servers.map((): number[] => []);
  const get = (c: number, query: string) => {
    const { served, headers } = servers[c]!;
    return timedGet(`${served.url}/api/v1/audit-log${shape.path ?? ''}?${query}`, headers);
  };
  for (const query of queries) for (const c of servers.keys()) await get(c, query);
  const loadBefore = loadavg()[0]!.toFixed(1);
  for (let round = 0; round < REPEAT; round++) {
    for (const [k, query] of queries.entries()) {
      const order = (k + round) % 2 === 0 ? [...servers.keys()] : [...servers.keys()].reverse();
      for (const c of order) {
        const response = await get(c, query);
        if (response.status !== 200) throw new Error(`${query}: ${response.status}`);
        times[c]![k]!.push(response.ms);
        counts[c]![k] = (JSON.parse(response.body.toString()) as { totalCount?: number }).totalCount ?? -1;
      }
    }
  }
  console.log(
    `${shape.name}: ${queries.length} queries × ${REPEAT} (load ${loadBefore} → ${loadavg()[0]!.toFixed(1)})`,
  );
  for (const [c, candidate] of candidates.entries()) {
    const all = percentiles(times[c]!.flat());
    console.log(`  ${candidate.name}: all requests p50 ${all.p50.toFixed(2)} p95 ${all.p95.toFixed(2)} ms`);
  }
  const rows = queries.map((query, k) => ({
    k,
    query,
    counted: counts[0]![k]!,
    each: servers.map((_, c) => percentiles(times[c]![k]!)),
  }));
  console.log(`  per query: ${candidates.map((c) => `${c.name} p50 / max ms`).join(' | ')}, slowest first`);
  for (const row of rows.sort((a, b) => b.each[0]!.p50 - a.each[0]!.p50))
    console.log(
      `  #${String(row.k).padStart(2)} ${row.each.map((p) => `${p.p50.toFixed(2).padStart(6)} / ${p.max.toFixed(2).padStart(6)}`).join(' | ')}  totalCount ${String(row.counted).padStart(6)}  ${decodeURIComponent(row.query)}`,
    );
} finally {
  for (const { served } of servers) await served.stop();
}
