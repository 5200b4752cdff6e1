import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { NewAuditEntry } from '../../src-server/core/audit/audit-entry.js';
import { verifyStoredChain } from '../../src-server/core/audit/chain/chain-verify-store.js';
import { importAuditEntries } from '../../src-server/core/audit/sql/audit-import.js';
import { readImportFile } from '../../src-server/control/audit/import/read-import-file.js';
import { createLogger } from '../../src-server/core/logging/logger.js';
import { Database } from '../../src-server/core/storage/database.js';
import { formatMs } from './stats.js';

export interface ChainMeasures {
  chainedRate: number;
  unchainedRate: number;
  /** The process's CPU time (every thread: the checkpointer, the thread pool's syncs) per entry, best of the rounds. */
  chainedCpuUs: number;
  unchainedCpuUs: number;
  verifyMs: number;
  verified: number;
}

async function* entriesOf(file: string): AsyncGenerator<NewAuditEntry[]> {
  for await (const records of readImportFile(file)) {
    yield records.flatMap((record) => ('entry' in record ? [record.entry] : []));
  }
}

/** Imports the file into a fresh database, chained or not: entries per second and CPU microseconds per entry. */
async function importRate(
  database: Database,
  file: string,
  chained: boolean,
): Promise<{ rate: number; cpuUs: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = await importAuditEntries(database, entriesOf(file), undefined, Date.now, 'bench', chained);
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  return { rate: result.added / seconds, cpuUs: (used.user + used.system) / result.added };
}

/**
 * What tamper evidence costs, in process on one engine: the same file imported with chaining and without (two
 * fresh databases, alternating which goes first over `rounds`, the best of each), then a verify of the first
 * chained tenant's whole chain. `openFresh(label)` gives a new empty database.
 *
 * Each database is verified (the first chained one) and closed before the next import starts: an open SQLite
 * database keeps a checkpointer thread that copies its WAL into the file every second, which ran during the
 * imports after it and slowed whichever came next. The CPU time per entry is reported beside the rate: on a
 * shared machine the rate of one import moves by several per cent from run to run, the CPU time much less.
 */
export async function measureChaining(
  file: string,
  openFresh: (label: string) => Promise<Database>,
  rounds = 2,
): Promise<ChainMeasures> {
  const best = { chainedRate: 0, unchainedRate: 0, chainedCpuUs: Infinity, unchainedCpuUs: Infinity };
  let verdict: Awaited<ReturnType<typeof verifyStoredChain>> | undefined;
  let verifyMs = 0;
  for (let round = 0; round < rounds; round++) {
    for (const chained of round % 2 === 0 ? [true, false] : [false, true]) {
      const database = await openFresh(`${chained ? 'chained' : 'unchained'}-${round}`);
      try {
        const { rate, cpuUs } = await importRate(database, file, chained);
        if (chained) {
          best.chainedRate = Math.max(best.chainedRate, rate);
          best.chainedCpuUs = Math.min(best.chainedCpuUs, cpuUs);
        } else {
          best.unchainedRate = Math.max(best.unchainedRate, rate);
          best.unchainedCpuUs = Math.min(best.unchainedCpuUs, cpuUs);
        }
        if (chained && !verdict) {
          const started = performance.now();
          verdict = await verifyStoredChain(database, 'bench', '');
          verifyMs = performance.now() - started;
        }
      } finally {
        await database.close();
      }
    }
  }
  if (!verdict) throw new Error('The benchmark ran no chained import (rounds < 1).');
  if (!verdict.intact)
    throw new Error(`The benchmark's chain does not verify: ${JSON.stringify(verdict.broken)}`);
  return { ...best, verifyMs, verified: verdict.entries };
}

/** A fresh SQLite data dir under `work` per label. */
export function freshSqlite(work: string): (label: string) => Promise<Database> {
  return async (label) => {
    const dataDir = join(work, `chain-${label}`);
    // Left by an earlier run that kept the directory (bench:audit --keep).
    await rm(dataDir, { recursive: true, force: true });
    await mkdir(dataDir, { recursive: true });
    return Database.open({ dataDir, logger: createLogger('silent') });
  };
}

export function chainReport(title: string, m: ChainMeasures): string {
  const cost = 1 - m.chainedRate / m.unchainedRate;
  return [
    `### ${title}: tamper evidence`,
    '',
    '| measure | value |',
    '|---|---:|',
    `| import with chaining, entries/s | ${Math.round(m.chainedRate).toLocaleString('en')} |`,
    `| import without chaining, entries/s | ${Math.round(m.unchainedRate).toLocaleString('en')} |`,
    `| chaining's cost (1 − with ÷ without) | ${(cost * 100).toFixed(1)} % |`,
    `| CPU per entry with / without chaining, µs | ${m.chainedCpuUs.toFixed(1)} / ${m.unchainedCpuUs.toFixed(1)} |`,
    `| chaining's cost in CPU time (1 − without ÷ with) | ${((1 - m.unchainedCpuUs / m.chainedCpuUs) * 100).toFixed(1)} % |`,
    `| verify ${m.verified.toLocaleString('en')} entries | ${formatMs(m.verifyMs)} ms |`,
  ].join('\n');
}
