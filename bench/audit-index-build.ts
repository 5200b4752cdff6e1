/**
 * Whether a large import into an empty trail would cost SQLite less written as a bulk load: the rows first, then
 * the indexes of `audit_entries` built by CREATE INDEX (one sort each) and the full-text index filled in one pass,
 * instead of every index kept up to date chunk by chunk as `audit-import.ts` writes. Replays the audit rows of a
 * data dir (its `audit_entries`, `audit_resources`) into fresh files with the same schema, in chunks of 10,000
 * rows and a transaction each as the import commits them, and prints SQLite's CPU time (process.cpuUsage: the
 * replay runs on this thread alone) and wall time per step:
 *   - per-chunk: every index and the full-text index kept in each chunk's transaction (what the import does);
 *   - built-after: the rows alone chunk by chunk, then each secondary index of `audit_entries` created, then the
 *     full-text index filled by one INSERT … SELECT;
 *   - built-after, search per chunk: as built-after, the full-text index filled chunk by chunk.
 * The counts are left out (the import sums them in memory; they are not an index). The methods alternate over
 * the rounds. On a loaded machine CPU times still vary by ±20 %; `valgrind --tool=callgrind node --jitless …`
 * around one method gives instruction counts that do not.
 *
 *   tsx bench/audit-index-build.ts --data-dir bench/.data/audit/sqlite-data [--rows 200000] [--rounds 2]
 *       [--only per-chunk|built-after|built-after-search-per-chunk]
 */
import { rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { SEARCH_DOCUMENT_SQL } from '../src-server/core/storage/migrations/0010-audit-search-batched.js';

const { values: args } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    rows: { type: 'string' },
    rounds: { type: 'string', default: '2' },
    only: { type: 'string' },
  },
});
if (!args['data-dir']) throw new Error('--data-dir DIR: a data dir with an imported trail');
const SOURCE = join(args['data-dir'], 'gatehouse.db');
const CHUNK_ROWS = 10_000;
const METHODS = ['per-chunk', 'built-after', 'built-after-search-per-chunk'] as const;
type Method = (typeof METHODS)[number];

interface SchemaRow {
  type: string;
  name: string;
  tbl_name: string;
  sql: string;
}

/** The schema of the source file, tables first (the full-text index's own tables come with its CREATE). */
function sourceSchema(): SchemaRow[] {
  const source = new Database(SOURCE, { readonly: true, fileMustExist: true });
  try {
    return source
      .prepare<[], SchemaRow>(
        `select type, name, tbl_name, sql from sqlite_master
         where sql is not null and name not like 'audit_search_%' and name not like 'sqlite_%'
         order by case type when 'table' then 0 when 'index' then 1 else 2 end`,
      )
      .all();
  } finally {
    source.close();
  }
}

/** Per step: SQLite's CPU and wall milliseconds. */
type Steps = Map<string, { cpuMs: number; wallMs: number }>;

function replay(method: Method, schema: SchemaRow[], rows: number | undefined): { steps: Steps; mb: number } {
  const file = join(tmpdir(), `gatehouse-index-build-${process.pid}.db`);
  for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('cache_size = -16384');
  db.pragma('wal_autocheckpoint = 1000');
  for (const { sql } of schema) db.exec(sql);
  db.exec(`attach '${SOURCE}' as source`);
  const last =
    rows ?? db.prepare<[], { id: number }>('select max(id) as id from source.audit_entries').get()!.id;
  const secondary = schema.filter((row) => row.type === 'index' && row.tbl_name === 'audit_entries');
  const steps: Steps = new Map();
  let mark = { cpu: process.cpuUsage(), wall: performance.now() };
  const step = (name: string, work: () => void) => {
    work();
    const cpu = process.cpuUsage(mark.cpu);
    const wall = performance.now();
    const total = steps.get(name) ?? { cpuMs: 0, wallMs: 0 };
    total.cpuMs += (cpu.user + cpu.system) / 1000;
    total.wallMs += wall - mark.wall;
    steps.set(name, total);
    mark = { cpu: process.cpuUsage(), wall: performance.now() };
  };
  const indexSearch = (from: number, to: number) =>
    db.exec(`insert into audit_search (rowid, document)
      select id, ${SEARCH_DOCUMENT_SQL} from audit_entries where id between ${from} and ${to}`);
  if (method !== 'per-chunk')
    step('drop secondary indexes', () => {
      for (const { name } of secondary) db.exec(`drop index ${name}`);
    });
  for (let from = 1; from <= last; from += CHUNK_ROWS) {
    const to = Math.min(from + CHUNK_ROWS - 1, last);
    // As `Database.transaction({relaxed: true})` commits an import's chunks.
    db.pragma('synchronous = normal');
    // Deferred (the import's is immediate): BEGIN IMMEDIATE would take the source file's write lock too.
    db.exec('begin');
    step('rows', () =>
      db.exec(
        `insert into audit_entries select * from source.audit_entries where id between ${from} and ${to}`,
      ),
    );
    step('resources', () =>
      db.exec(
        `insert into audit_resources select * from source.audit_resources where entry_id between ${from} and ${to}`,
      ),
    );
    if (method !== 'built-after') step('search, per chunk', () => indexSearch(from, to));
    step('commits', () => db.exec('commit'));
    db.pragma('synchronous = full');
  }
  if (method !== 'per-chunk') {
    for (const { name, sql } of secondary) step(`create ${name}`, () => db.exec(sql));
    if (method === 'built-after') step('search, one pass', () => indexSearch(1, last));
  }
  step('checkpoint', () => db.pragma('wal_checkpoint(TRUNCATE)'));
  db.close();
  const mb = statSync(file).size / 1e6;
  for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
  return { steps, mb };
}

const schema = sourceSchema();
const rows = args.rows === undefined ? undefined : Number(args.rows);
const methods = args.only === undefined ? METHODS : METHODS.filter((method) => method === args.only);
if (methods.length === 0) throw new Error(`--only ${METHODS.join('|')}`);
for (let round = 1; round <= Number(args.rounds); round++) {
  for (const method of round % 2 === 1 ? methods : [...methods].reverse()) {
    const load = loadavg()[0]!.toFixed(1);
    const { steps, mb } = replay(method, schema, rows);
    let cpu = 0;
    let wall = 0;
    console.log(`\nround ${round}, ${method} (load ${load}):`);
    for (const [name, { cpuMs, wallMs }] of steps) {
      cpu += cpuMs;
      wall += wallMs;
      console.log(
        `  ${name.padEnd(44)} ${cpuMs.toFixed(0).padStart(7)} ms CPU ${wallMs.toFixed(0).padStart(7)} ms`,
      );
    }
    console.log(
      `  ${'total'.padEnd(44)} ${cpu.toFixed(0).padStart(7)} ms CPU ${wall.toFixed(0).padStart(7)} ms, ${mb.toFixed(0)} MB`,
    );
  }
}
