/**
 * Store-level micro-benchmark of the file-based audit store.
 *
 *   npx tsx bench/audit-store.ts [--count 1000000] [--queries 300] [--dir path --keep] [--skip-import]
 *
 * Imports N generated entries, closes, measures a cold start (open time and RSS) in a fresh process,
 * then times query shapes (p50/p95), concurrent appends, a full export iteration and retention.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import type { AuditQuery, AuditStore } from '../src-server/core/audit/audit-entry.js';
import { openAuditStore } from '../src-server/core/audit/store/index.js';
import { createRandom, generateAuditEntries } from './lib/audit-generator.js';
import { formatMs, percentiles } from './lib/stats.js';

const DAY_MS = 86_400_000;
const { values: args } = parseArgs({
  options: {
    count: { type: 'string', default: '1000000' },
    queries: { type: 'string', default: '300' },
    dir: { type: 'string' },
    keep: { type: 'boolean', default: false },
    'skip-import': { type: 'boolean', default: false },
  },
});
const count = Number(args.count);
const queryRuns = Number(args.queries);
const dir = args.dir ?? (await mkdtemp(path.join(os.tmpdir(), 'gatehouse-audit-bench-')));
const endMs = Date.parse('2025-06-30T12:00:00.000Z');
const warnings: string[] = [];
const onWarning = (message: string): void => {
  warnings.push(message);
};

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
}

/** Time to only generate the entries, so the import rate can also be given without the generator's share. */
function generatorSeconds(): number {
  const started = performance.now();
  let checksum = 0;
  for (const entry of generateAuditEntries({ count, endMs, seed: 7 })) checksum += entry.actionName.length;
  if (checksum === 0) throw new Error('generator produced nothing');
  return (performance.now() - started) / 1000;
}

async function importPhase(): Promise<void> {
  const generation = generatorSeconds();
  const store = await openAuditStore({ dir, onWarning });
  const started = performance.now();
  const result = await store.importEntries(generateAuditEntries({ count, endMs, seed: 7 }), (progress) => {
    if (progress.read % 200_000 === 0) process.stdout.write(`  imported ${progress.read}\r`);
  });
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `import: ${result.added} added, ${result.duplicates} duplicates in ${seconds.toFixed(2)} s = ${Math.round(result.read / seconds)} entries/s` +
      ` (generator alone ${generation.toFixed(2)} s; store share ${Math.round(result.read / (seconds - generation))} entries/s)`,
  );
  const closeStarted = performance.now();
  await store.close();
  console.log(`close (writes the index snapshot): ${formatMs(performance.now() - closeStarted)} ms`);
}

async function coldStartPhase(): Promise<void> {
  const probe = fileURLToPath(new URL('./lib/cold-start-probe.ts', import.meta.url));
  const runs = [];
  for (let i = 0; i < 3; i++) {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', probe, dir], {
      maxBuffer: 1 << 20,
    });
    runs.push(
      JSON.parse(stdout.trim().split('\n').at(-1)!) as {
        openMs: number;
        rssBytes: number;
        count: number;
        firstQueryMs: number;
        warnings: string[];
      },
    );
  }
  for (const run of runs) {
    console.log(
      `cold start: open ${formatMs(run.openMs)} ms, RSS ${mib(run.rssBytes)}, ${run.count} entries, first page ${formatMs(run.firstQueryMs)} ms${run.warnings.length ? `, warnings: ${run.warnings.join('; ')}` : ''}`,
    );
  }
}

async function timeShape(store: AuditStore, label: string, makeQuery: () => AuditQuery): Promise<void> {
  const samples: number[] = [];
  let totals = 0;
  for (let i = 0; i < queryRuns; i++) {
    const query = makeQuery();
    const started = performance.now();
    const page = await store.query(query);
    samples.push(performance.now() - started);
    totals += page.totalCount;
  }
  const { p50, p95, max } = percentiles(samples);
  console.log(
    `  ${label.padEnd(34)} p50 ${formatMs(p50).padStart(7)} ms  p95 ${formatMs(p95).padStart(7)} ms  max ${formatMs(max).padStart(7)} ms  avg total ${Math.round(totals / queryRuns)}`,
  );
}

async function queryPhase(store: AuditStore): Promise<void> {
  const random = createRandom(99);
  const { actionNames, userNames } = await store.facets();
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const startMs = endMs - 60 * DAY_MS;
  const randomDay = (): number => startMs + Math.floor(random() * 60) * DAY_MS;
  const samplePage = await store.query({ pageNumber: 1, pageSize: 1000 });
  console.log(`queries (${queryRuns} runs each, page size 30):`);
  await timeShape(store, 'no filter, page 1', () => ({ pageNumber: 1, pageSize: 30 }));
  await timeShape(store, 'one-day range', () => {
    const day = randomDay();
    return { pageNumber: 1, pageSize: 30, startMs: day, endMs: day + DAY_MS };
  });
  await timeShape(store, 'one actionName', () => ({
    pageNumber: 1,
    pageSize: 30,
    actionName: pick(actionNames).toUpperCase(),
  }));
  await timeShape(store, 'one userName', () => ({ pageNumber: 1, pageSize: 30, userName: pick(userNames) }));
  await timeShape(store, 'all combined (7 days+action+user)', () => {
    const entry = pick(samplePage.items);
    const day = Date.parse(entry.timestamp) - 3 * DAY_MS;
    return {
      pageNumber: 1,
      pageSize: 30,
      startMs: day,
      endMs: day + 7 * DAY_MS,
      actionName: entry.actionName,
      userName: entry.userName,
    };
  });
  await timeShape(store, 'top action + top user, all time', () => ({
    pageNumber: 1 + Math.floor(random() * 20),
    pageSize: 30,
    actionName: 'ProcessInstance.Acknowledge',
    userName: pick(userNames.slice(0, 20)),
  }));
  await timeShape(store, 'PageNumber 5000, no filter', () => ({ pageNumber: 5000, pageSize: 30 }));
  await timeShape(store, 'PageNumber 5000, one actionName', () => ({
    pageNumber: 5000,
    pageSize: 30,
    actionName: 'ProcessInstance.Acknowledge',
  }));
}

async function appendPhase(store: AuditStore): Promise<void> {
  const total = 20_000;
  const concurrency = 64;
  const generator = generateAuditEntries({ count: total, endMs: endMs + DAY_MS, spanDays: 1, seed: 11 });
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let next = generator.next(); !next.done; next = generator.next()) {
        const begun = performance.now();
        await store.append(next.value);
        latencies.push(performance.now() - begun);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const { p50, p95 } = percentiles(latencies);
  console.log(
    `append: ${total} durable appends, ${concurrency} concurrent: ${Math.round(total / seconds)} appends/s, latency p50 ${formatMs(p50)} ms p95 ${formatMs(p95)} ms`,
  );
}

async function exportPhase(store: AuditStore): Promise<void> {
  const started = performance.now();
  let exported = 0;
  for await (const entry of store.iterate({})) exported += entry.id > 0 ? 1 : 0;
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `iterate (export) all: ${exported} entries in ${seconds.toFixed(2)} s = ${Math.round(exported / seconds)} entries/s, RSS ${mib(process.memoryUsage().rss)}`,
  );
}

async function retentionPhase(store: AuditStore): Promise<void> {
  const started = performance.now();
  const { removed } = await store.applyRetention({
    now: endMs + DAY_MS,
    maxAgeMs: 45 * DAY_MS,
    agentWindow: 1000,
    isResourceLive: (resource) => !resource.id.endsWith('7'),
  });
  console.log(
    `retention (45 days): removed ${removed} in ${formatMs(performance.now() - started)} ms (tombstones, compaction, snapshot); ${await store.count()} left`,
  );
}

console.log(
  `audit store benchmark: ${count} entries in ${dir} (Node ${process.version}, ${os.cpus().length} CPUs)`,
);
if (args['skip-import']) {
  if (!args.dir) throw new Error('--skip-import needs --dir of a store imported before (with --keep)');
} else {
  await importPhase();
}
await coldStartPhase();
const store = await openAuditStore({ dir, onWarning });
await queryPhase(store);
// A re-measurement of a kept store stays read-only, so it can be repeated.
if (!args['skip-import']) await appendPhase(store);
await exportPhase(store);
if (!args['skip-import']) await retentionPhase(store);
await store.close();
if (warnings.length > 0) console.log(`warnings: ${warnings.join('; ')}`);
if (!args.keep) await rm(dir, { recursive: true, force: true });
