import { mkdir } from 'node:fs/promises';
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
  verifyMs: number;
  verified: number;
}

async function* entriesOf(file: string): AsyncGenerator<NewAuditEntry[]> {
  for await (const records of readImportFile(file)) {
    yield records.flatMap((record) => ('entry' in record ? [record.entry] : []));
  }
}

/** Imports the file into a fresh database, chained or not, and returns entries per second. */
async function importRate(database: Database, file: string, chained: boolean): Promise<number> {
  const started = performance.now();
  const result = await importAuditEntries(database, entriesOf(file), undefined, Date.now, 'bench', chained);
  return result.added / ((performance.now() - started) / 1000);
}

/**
 * What tamper evidence costs, in process on one engine: the same file imported with chaining and without (two
 * fresh databases, alternating which goes first over `rounds`, the best rate of each), then a verify of the
 * chained tenant's whole chain. `openFresh(label)` gives a new empty database.
 */
export async function measureChaining(
  file: string,
  openFresh: (label: string) => Promise<Database>,
  rounds = 2,
): Promise<ChainMeasures> {
  let chainedRate = 0;
  let unchainedRate = 0;
  let verifyDatabase: Database | undefined;
  for (let round = 0; round < rounds; round++) {
    for (const chained of round % 2 === 0 ? [true, false] : [false, true]) {
      const database = await openFresh(`${chained ? 'chained' : 'unchained'}-${round}`);
      const rate = await importRate(database, file, chained);
      if (chained) chainedRate = Math.max(chainedRate, rate);
      else unchainedRate = Math.max(unchainedRate, rate);
      if (chained && !verifyDatabase) verifyDatabase = database;
      else await database.close();
    }
  }
  const started = performance.now();
  const verdict = await verifyStoredChain(verifyDatabase!, 'bench', '');
  const verifyMs = performance.now() - started;
  await verifyDatabase!.close();
  if (!verdict.intact)
    throw new Error(`The benchmark's chain does not verify: ${JSON.stringify(verdict.broken)}`);
  return { chainedRate, unchainedRate, verifyMs, verified: verdict.entries };
}

/** A fresh SQLite data dir under `work` per label. */
export function freshSqlite(work: string): (label: string) => Promise<Database> {
  return async (label) => {
    const dataDir = join(work, `chain-${label}`);
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
    `| verify ${m.verified.toLocaleString('en')} entries | ${formatMs(m.verifyMs)} ms |`,
  ].join('\n');
}
