/**
 * npm run bench:backup — backing up and restoring a data dir of 1,000,000 audit entries, with the built CLI, side
 * by side with SQLite's own tools on the same file in one run:
 *   - full backup: `gatehouse backup --full` against the sqlite3 shell's `.backup` and a plain `cp` of the file;
 *   - differential: `gatehouse backup` after a day's worth of new entries;
 *   - point-in-time restore: `gatehouse restore --to T --into DIR` of a moment before that day (from the
 *     differential: its full backup copied, the changes applied, the day taken back out), against copying the
 *     full `.backup` file into place (no point in time: the floor of any restore).
 *
 *   npm run bench:backup -- [--count 1000000] [--rounds 3]
 */
import { spawnSync } from 'node:child_process';
import { mkdir, rm, stat } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { writeAuditNdjson } from './lib/audit-dataset.js';
import { CLI, ROOT } from './lib/gatehouse-serve.js';

const { values } = parseArgs({ options: { count: { type: 'string' }, rounds: { type: 'string' } } });
const COUNT = Number(values.count ?? 1_000_000);
const ROUNDS = Math.max(1, Number(values.rounds ?? 3));
const WORK = join(ROOT, 'bench/.data/backup');
const DATA = join(WORK, 'data');
const DAY = 86_400_000;

function timed(command: string, args: string[], env: Record<string, string> = {}): number {
  const started = performance.now();
  const result = spawnSync(command, args, { encoding: 'utf8', env: { ...process.env, ...env } });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${result.stderr}`);
  return (performance.now() - started) / 1000;
}

const gatehouse = (...args: string[]) => timed(process.execPath, [CLI, ...args, '--data-dir', DATA]);
const best = (samples: number[]) => Math.min(...samples);
const seconds = (value: number) => `${value.toFixed(2)} s`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function main(): Promise<void> {
  await rm(WORK, { recursive: true, force: true });
  await mkdir(WORK, { recursive: true });
  const endMs = Date.now() - DAY;
  const base = join(WORK, 'base.ndjson');
  await writeAuditNdjson(base, { count: COUNT, endMs, seed: 7 });
  const importSeconds = gatehouse('audit', 'import', base);
  const db = join(DATA, 'gatehouse.db');
  console.log(
    `${COUNT.toLocaleString('en')} entries imported in ${seconds(importSeconds)}; ${mb((await stat(db)).size)}`,
  );

  // Full backups, alternating the candidates.
  const full = { gatehouse: [] as number[], sqlite3: [] as number[], cp: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    full.gatehouse.push(gatehouse('backup', '--full'));
    const copy = join(WORK, `sqlite3-${round}.db`);
    full.sqlite3.push(timed('sqlite3', [db, `.backup '${copy}'`]));
    full.cp.push(timed('cp', [db, join(WORK, `cp-${round}.db`)]));
  }

  // A day of new entries after the moment, then the daily differential.
  const moment = new Date().toISOString();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const day = join(WORK, 'day.ndjson');
  const dayCount = Math.round(COUNT / 60);
  await writeAuditNdjson(day, { count: dayCount, endMs: Date.now(), seed: 11 });
  gatehouse('audit', 'import', day);
  const differential: number[] = [];
  for (let round = 0; round < ROUNDS; round++) differential.push(gatehouse('backup'));
  const listing = spawnSync(process.execPath, [CLI, 'backup', 'list', '--data-dir', DATA], {
    encoding: 'utf8',
  });

  // Restores of the moment before that day.
  const restore = { gatehouse: [] as number[], cp: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    const into = join(WORK, `restored-${round}`);
    restore.gatehouse.push(gatehouse('restore', '--to', moment, '--into', into));
    await mkdir(join(WORK, `copied-${round}`));
    restore.cp.push(
      timed('cp', [join(WORK, `sqlite3-${round}.db`), join(WORK, `copied-${round}`, 'gatehouse.db')]),
    );
  }
  const backups = listing.stdout
    .split('\n')
    .filter((line) => /gatehouse-\d/.test(line))
    .map((line) => line.trim());

  const lines = [
    `Command: npm run bench:backup -- --count ${COUNT} --rounds ${ROUNDS}  (${new Date().toISOString().slice(0, 10)}, Node ${process.version}, load average ${loadavg()[0]!.toFixed(1)}; best of ${ROUNDS})`,
    '',
    `Database: ${COUNT.toLocaleString('en')} audit entries, ${mb((await stat(db)).size)}; then ${dayCount.toLocaleString('en')} more (a day).`,
    '',
    '| operation | Gatehouse | sqlite3 `.backup` | `cp` of the file | target |',
    '|---|---:|---:|---:|---:|',
    `| full backup | ${seconds(best(full.gatehouse))} | ${seconds(best(full.sqlite3))} | ${seconds(best(full.cp))} | ≤ 10 s |`,
    `| differential backup (a day of changes) | ${seconds(best(differential))} | — | — | |`,
    `| point-in-time restore (before that day) | ${seconds(best(restore.gatehouse))} | — | ${seconds(best(restore.cp))} (copy of a full backup, no point in time) | ≤ 30 s |`,
    '',
    'Backups listed (newest last):',
    ...backups.map((line) => `    ${line}`),
  ];
  console.log(`\n${lines.join('\n')}`);
  await rm(WORK, { recursive: true, force: true });
}

await main();
