/**
 * npm run bench:monitoring — API Monitoring at 1,000,000 records, at store level.
 *
 *   npm run bench:monitoring -- [--count 1000000] [--runs 40] [--dir path --keep]
 *
 * Appends N generated records (batches of 1,000, as the recorder flushes them) to Gatehouse's store, and the same
 * records to a plain SQLite table with two indexes (bench/lib/plain-sqlite-monitoring.ts). Then in a fresh
 * process it opens the store (time to open, RSS) and times list and summary queries (p50/p95/max, after three
 * untimed warm-up runs of each shape); the summary shapes (status classes and latency percentiles per bucket, as
 * the monitoring screen shows them) run on the plain table too, side by side.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import type { NewMonitoringRecord } from '../src-server/core/monitoring/monitoring-record.js';
import type { MonitoringFilter, MonitoringQuery } from '../src-server/core/monitoring/monitoring-store.js';
import { createLogger } from '../src-server/core/logging/logger.js';
import { SqlMonitoringStore } from '../src-server/core/monitoring/sql/sql-monitoring-store.js';
import { Database } from '../src-server/core/storage/database.js';

async function openMonitoringStore({ dir }: { dir: string }) {
  const database = await Database.open({ dataDir: dir, logger: createLogger('warn') });
  const store = new SqlMonitoringStore(database);
  return Object.assign(store, {
    close: async () => {
      await SqlMonitoringStore.prototype.close.call(store);
      await database.close();
    },
  });
}
import { createRandom } from './lib/random.js';
import { PlainMonitoringTable } from './lib/plain-sqlite-monitoring.js';
import { formatMs, percentiles } from './lib/stats.js';

const DAY_MS = 86_400_000;
const END_MS = Date.parse('2026-03-01T00:00:00.000Z');
const { values: args } = parseArgs({
  options: {
    count: { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '40' },
    dir: { type: 'string' },
    keep: { type: 'boolean', default: false },
    /** Internal: the fresh process that opens and queries an existing directory. */
    probe: { type: 'string' },
  },
});
const count = Number(args.count);
const runs = Number(args.runs);

const STATUSES = [200, 200, 200, 200, 200, 200, 200, 201, 204, 301, 400, 401, 404, 404, 429, 500, 502, 504];
const METHODS = ['GET', 'GET', 'GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'];

/** N records spread over 60 days, oldest first; 40 APIs in 3 agent groups, ~200,000 distinct paths. */
function* generateRecords(total: number): Generator<NewMonitoringRecord> {
  const random = createRandom(7);
  const startMs = END_MS - 60 * DAY_MS;
  const step = (60 * DAY_MS) / total;
  for (let i = 0; i < total; i++) {
    const api = Math.floor(random() * 44);
    const matched = api < 40;
    const resource = ['orders', 'customers', 'invoices', 'items', 'carts'][api % 5]!;
    const status = matched ? STATUSES[Math.floor(random() * STATUSES.length)]! : 404;
    const method = METHODS[Math.floor(random() * METHODS.length)]!;
    // Log-normal-ish: median ~40 ms, a long tail.
    const durationMs =
      Math.round(Math.exp(Math.log(40) + (random() + random() + random() - 1.5) * 2) * 100) / 100;
    const record: NewMonitoringRecord = {
      time: new Date(startMs + i * step - random() * 2000).toISOString(),
      agentGroupId: `group-${api % 3}`,
      agentGroupName: `Group ${api % 3}`,
      method,
      path: `/api${api}/v1/${resource}/${Math.floor(random() * 5000)}`,
      status,
      durationMs,
      bytesIn: method === 'GET' ? 0 : 512,
      bytesOut: 2048,
      outcome: !matched
        ? 'unmatched'
        : status === 429
          ? 'throttled'
          : status >= 502
            ? 'upstream-error'
            : 'forwarded',
      clientIp: `10.0.${Math.floor(random() * 4)}.${Math.floor(random() * 250)}`,
    };
    if (matched) {
      record.apiId = `api-${api}`;
      record.apiName = `API ${api}`;
      record.operation = `${method} /${resource}/{id}`;
      record.targetUrl = `https://backend-${api}.example.test/${resource}/********`;
      record.identity = 'apiKey:gh_1234';
    }
    yield record;
  }
}

async function appendPhase(dir: string): Promise<void> {
  const store = await openMonitoringStore({ dir });
  const started = performance.now();
  let batch: NewMonitoringRecord[] = [];
  for (const record of generateRecords(count)) {
    batch.push(record);
    if (batch.length === 1000) {
      await store.append(batch);
      batch = [];
    }
  }
  if (batch.length > 0) await store.append(batch);
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `append: ${count} records in ${seconds.toFixed(2)} s = ${Math.round(count / seconds)} records/s ` +
      `(generator included)`,
  );
  await store.close();
  const plain = PlainMonitoringTable.create(path.join(dir, 'plain.db'));
  const plainStarted = performance.now();
  plain.insertAll(generateRecords(count));
  const plainSeconds = (performance.now() - plainStarted) / 1000;
  console.log(
    `plain table insert: ${count} records in ${plainSeconds.toFixed(2)} s = ${Math.round(count / plainSeconds)} records/s`,
  );
  plain.close();
}

interface Timed {
  name: string;
  /** May return a promise, which is awaited. */
  run: () => unknown;
}

async function probePhase(dir: string): Promise<void> {
  const openStarted = performance.now();
  const store = await openMonitoringStore({ dir });
  const openMs = performance.now() - openStarted;
  global.gc?.();
  const memory = process.memoryUsage();
  console.log(
    `open: ${formatMs(openMs)} ms for ${(await store.stats()).records} records; ` +
      `RSS ${mib(memory.rss)}, heap ${mib(memory.heapUsed)}`,
  );
  const last24h = { startMs: END_MS - DAY_MS, endMs: END_MS };
  const all = { startMs: END_MS - 60 * DAY_MS - DAY_MS, endMs: END_MS + DAY_MS };
  const list = (filter: MonitoringFilter, pageNumber = 1, pageSize = 50): Promise<unknown> =>
    store.query({ ...filter, pageNumber, pageSize } satisfies MonitoringQuery);
  const shapes: Timed[] = [
    { name: 'list: no filter, page 1', run: () => list({}) },
    { name: 'list: last 24 h, page 1', run: () => list(last24h) },
    { name: 'list: apiId (all time)', run: () => list({ apiId: 'api-7' }) },
    {
      name: 'list: status 5xx, last 7 days',
      run: () => list({ status: { classOf: 5 }, startMs: END_MS - 7 * DAY_MS }),
    },
    { name: 'list: path prefix (all time)', run: () => list({ pathPrefix: '/api3/v1/items/12' }) },
    {
      name: 'list: method POST + minDurationMs 200',
      run: () => list({ method: 'post', minDurationMs: 200 }),
    },
    { name: 'list: outcome, page 100 of 500', run: () => list({ outcome: 'forwarded' }, 100, 500) },
    {
      name: 'list: every filter at once',
      run: () =>
        list({
          ...all,
          apiId: 'api-4',
          operation: 'GET /items/{id}',
          agentGroupId: 'group-1',
          status: { code: 200 },
          method: 'GET',
          minDurationMs: 10,
          pathPrefix: '/api4/',
          outcome: 'forwarded',
        }),
    },
    { name: 'detail: get by id', run: () => store.get(Math.floor(count / 2)) },
    {
      name: 'summary: last 24 h, 5 m (288 buckets)',
      run: () => store.summarize({ filter: last24h, intervalMs: 300_000 }),
    },
    {
      name: 'summary: 60 days, 1 d (62 buckets)',
      run: () => store.summarize({ filter: all, intervalMs: DAY_MS }),
    },
    {
      name: 'summary: 20 days, 1 h (480 buckets)',
      run: () =>
        store.summarize({ filter: { startMs: END_MS - 20 * DAY_MS, endMs: END_MS }, intervalMs: 3_600_000 }),
    },
    {
      name: 'summary: 60 days, 1 d, apiId + 5xx',
      run: () =>
        store.summarize({ filter: { ...all, apiId: 'api-9', status: { classOf: 5 } }, intervalMs: DAY_MS }),
    },
    {
      // The console's "last 60 days" ends now, inside a day and an hour: the ends come from finer roll-ups.
      name: 'summary: 60 days ending mid-hour, 1 d',
      run: () =>
        store.summarize({
          filter: { startMs: END_MS - 60 * DAY_MS - 1_380_000, endMs: END_MS - 1_380_000 },
          intervalMs: DAY_MS,
        }),
    },
  ];
  for (const shape of shapes) {
    // A server answers the same shapes over and over: time them warm (JIT-compiled), not their first call.
    for (let i = 0; i < 3; i++) await shape.run();
    const samples: number[] = [];
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      await shape.run();
      samples.push(performance.now() - started);
    }
    const { p50, p95, max } = percentiles(samples);
    console.log(
      `${shape.name.padEnd(44)} p50 ${formatMs(p50)} ms  p95 ${formatMs(p95)} ms  max ${formatMs(max)} ms`,
    );
  }
  console.log(`RSS after queries: ${mib(process.memoryUsage().rss)}`);
  await store.close();

  // The same summaries on the plain table: its rows read through the time index, bucketed and ranked in JS.
  const plain = PlainMonitoringTable.open(path.join(dir, 'plain.db'));
  const summaries = shapes.filter((shape) => shape.name.startsWith('summary'));
  const plainShapes: Timed[] = [
    { name: summaries[0]!.name, run: () => plain.summarize(last24h, 300_000) },
    { name: summaries[1]!.name, run: () => plain.summarize(all, DAY_MS) },
    {
      name: summaries[2]!.name,
      run: () => plain.summarize({ startMs: END_MS - 20 * DAY_MS, endMs: END_MS }, 3_600_000),
    },
    {
      name: summaries[3]!.name,
      run: () => plain.summarize({ ...all, apiId: 'api-9', statusClass: 5 }, DAY_MS),
    },
  ];
  for (const shape of plainShapes) {
    for (let i = 0; i < 3; i++) await shape.run();
    const samples: number[] = [];
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      await shape.run();
      samples.push(performance.now() - started);
    }
    const { p50, p95, max } = percentiles(samples);
    console.log(
      `plain table ${shape.name.padEnd(32)} p50 ${formatMs(p50)} ms  p95 ${formatMs(p95)} ms  max ${formatMs(max)} ms`,
    );
  }
  plain.close();
}

/** Destructive (deletes half the log), so it runs last and not on a directory kept for more probes. */
async function retentionPhase(dir: string): Promise<void> {
  const store = await openMonitoringStore({ dir });
  const started = performance.now();
  const { removed } = await store.applyRetention({ now: END_MS, maxAgeMs: 30 * DAY_MS });
  console.log(`retention (30 of 60 days): removed ${removed} in ${formatMs(performance.now() - started)} ms`);
  await store.close();
}

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
}

if (args.probe) {
  await probePhase(args.probe);
} else {
  const dir = args.dir ?? (await mkdtemp(path.join(os.tmpdir(), 'gatehouse-monitoring-bench-')));
  console.log(`${count} records in ${dir}; node ${process.version}`);
  await appendPhase(dir);
  const self = fileURLToPath(import.meta.url);
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', self, '--probe', dir, '--runs', String(runs)],
    { maxBuffer: 1 << 20 },
  );
  process.stdout.write(stdout);
  if (!args.keep) {
    await retentionPhase(dir);
    await rm(dir, { recursive: true, force: true });
  }
}
