/**
 * A full Gatehouse on a temporary data dir with two passthroughs to the benchmark's target:
 *
 * - `/bench/items/{id}` (full-featured): a templated target (`#env` and `#api.QueryParameters.x`), two header
 *   entries, CORS on, an API-key policy;
 * - `/plain/items/{id}` (plain): a literal target, public.
 *
 * Every request is recorded in API Monitoring. With `--operations N`, two more APIs of N operations each are loaded
 * as well (the reconfiguration benchmark): an `All operations` entry, and every K-th operation with its own entry
 * (`--entry-every K`, 1 by default: every operation).
 * Usage: gatehouse-proxy <target origin> [--operations N [--entry-every K]]. Prints one JSON line once ready.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { startGatehouse } from '../../src-server/app/gatehouse.js';
import { createLogger } from '../../src-server/core/logging/logger.js';
import { withEntryDefaults } from '../../src-server/core/passthrough/forwarding/index.js';
import type { ApiRecord, ConfigData, PassthroughEntry } from '../../src-server/core/model/config-model.js';
import { benchApi, configureBenchRoute } from './bench-route.js';
import { installTailProbe } from './tail-probe.js';
import { SqlMonitoringStore } from '../../src-server/core/monitoring/sql/sql-monitoring-store.js';

const { values: options, positionals } = parseArgs({
  options: {
    operations: { type: 'string', default: '0' },
    'entry-every': { type: 'string', default: '1' },
  },
  allowPositionals: true,
});
const target = positionals[0];
if (!target) throw new Error('usage: gatehouse-proxy <target origin> [--operations N]');
const origin = 'https://app.example.com';
const dataDir = await mkdtemp(join(tmpdir(), 'gatehouse-bench-proxy-'));
// With `--operations`, the gateway's time to apply each configuration change after start is reported on stdout.
let ready = false;
const logger =
  Number(options.operations) > 0
    ? createLogger(
        'debug',
        new Writable({
          write(chunk: Buffer, _encoding, callback) {
            const line = JSON.parse(chunk.toString('utf8')) as { level: number; msg: string; ms?: number };
            if (line.msg === 'gateway configuration applied') {
              if (ready) console.log(JSON.stringify({ applyMs: line.ms }));
            } else if (line.level >= 40) process.stderr.write(chunk);
            callback();
          },
        }),
      )
    : createLogger('warn');
const gatehouse = await startGatehouse({
  dataDir,
  port: 0,
  gatewayPort: 0,
  env: {},
  logger,
  uiDir: undefined,
});
// Diagnostics only: BENCH_NO_MONITORING=1 replaces API Monitoring with a sink that drops records.
if (process.env.BENCH_NO_MONITORING === '1') gatehouse.gateway.setMonitoringSink({ record: () => undefined });

// Diagnostics only: BENCH_NO_MONITORING_STORE=1 keeps the recorder (ring, metrics) but drops its store writes.
if (process.env.BENCH_NO_MONITORING_STORE === '1')
  SqlMonitoringStore.prototype.write = (records) => Promise.resolve(records.length);

// Diagnostics only (bench:proxy-tail): BENCH_TAIL_PROBE=1 reports loop delays, GC pauses and store writes.
if (process.env.BENCH_TAIL_PROBE === '1') {
  const timed = installTailProbe();
  const database = gatehouse.database;
  // BENCH_WAL_AUTOCHECKPOINT=N: SQLite's auto-checkpoint threshold in pages (0: never, the WAL grows).
  if (process.env.BENCH_WAL_AUTOCHECKPOINT !== undefined)
    database.sqlite?.pragma(`wal_autocheckpoint = ${Number(process.env.BENCH_WAL_AUTOCHECKPOINT)}`);
  const bulkInsert = database.bulkInsert.bind(database);
  database.bulkInsert = async (...args: Parameters<typeof bulkInsert>) => {
    const start = performance.now();
    const done = bulkInsert(...args);
    timed(`insert slice (${args[1]})`, performance.now() - start);
    return done;
  };
  const insertValues = database.insertValues.bind(database);
  database.insertValues = async (...args: Parameters<typeof insertValues>) => {
    const start = performance.now();
    const done = insertValues(...args);
    timed(`insert slice (${args[1]})`, performance.now() - start);
    return done;
  };
  const transaction = database.transaction.bind(database);
  database.transaction = <T>(work: Parameters<typeof transaction<T>>[0], options?: { relaxed?: boolean }) => {
    const start = performance.now();
    let workDone = 0;
    return transaction(async (trx) => {
      const result = await work(trx);
      workDone = performance.now();
      return result;
    }, options).then((result) => {
      const end = performance.now();
      timed(options?.relaxed ? 'relaxed transaction (wall)' : 'transaction (wall)', end - start);
      timed(options?.relaxed ? 'relaxed commit' : 'commit', end - workDone);
      return result;
    });
  };
}

/** Two APIs of `count` operations each (`GET /r{i}/items/{id}`), every `every`-th with its own entry. */
function addLargeApis(data: ConfigData, at: string, count: number, every: number): void {
  for (const name of ['large-a', 'large-b']) {
    const operations: ApiRecord['operations'] = [];
    const entries: Record<string, PassthroughEntry> = {};
    for (let index = 0; index < count; index++) {
      const path = `/r${index}/items/{id}`;
      const key = `GET ${path}`;
      operations.push({ key, method: 'GET', path, operationId: `getItem${index}`, pathParameters: ['id'] });
      if (index % every !== 0) continue;
      entries[key] = withEntryDefaults({
        target: {
          section1: '{{#env.backend.url}}',
          section2: `r${index}/items`,
          section3: '{{#api.OperationPath.id}}',
        },
        headers: [{ action: 'Add', name: 'X-Resource', value: `r${index}` }],
      });
    }
    const record = benchApi(randomUUID(), `/${name}`, operations, at);
    data.apis.push(record);
    data.passthroughs.push({
      id: randomUUID(),
      apiId: record.id,
      operations: entries,
      allOperations: withEntryDefaults({
        target: { section1: '{{#env.backend.url}}', section2: 'all', section3: '{{#api.OperationPath}}' },
      }),
      revision: 1,
      createdAt: at,
      updatedAt: at,
    });
  }
}

const count = Number(options.operations);
const apiKey = await configureBenchRoute(gatehouse, target, origin, undefined, (data, at) => {
  if (count > 0) addLargeApis(data, at, count, Number(options['entry-every']));
});
await gatehouse.gateway.settled();
const port = Number(new URL(gatehouse.gatewayEndpoints()[0]!.url).port);
const token = await gatehouse.issueToken({ userName: 'bench', roles: ['Operator'], ttlSeconds: 3600 });
console.log(JSON.stringify({ port, apiKey, origin, controlPanel: gatehouse.controlPanelUrl(), token }));
ready = true;

const stop = async () => {
  await gatehouse.close();
  await rm(dataDir, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
