/**
 * The generated audit trail of the benchmarks (bench/lib/audit-generator.ts), delivered two ways: as an NDJSON
 * file for `gatehouse audit import`, or straight into a data dir's audit store (the same store code the import
 * command runs, without writing and parsing JSON text in between).
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { SqlAuditStore } from '../../src-server/core/audit/sql/sql-audit-store.js';
import { createLogger } from '../../src-server/core/logging/logger.js';
import { Database } from '../../src-server/core/storage/database.js';
import { generateAuditEntries } from './audit-generator.js';

export interface AuditDatasetOptions {
  count: number;
  /** Newest timestamp (epoch ms); entries span the 60 days before it. */
  endMs: number;
  /** Same seed, same entries. Default 7. */
  seed?: number;
}

/** Writes the entries as NDJSON, one per line, in chunks of about 1 MiB. */
export async function writeAuditNdjson(file: string, options: AuditDatasetOptions): Promise<void> {
  const out = createWriteStream(file);
  let chunk = '';
  for (const entry of generateAuditEntries({
    count: options.count,
    endMs: options.endMs,
    seed: options.seed ?? 7,
  })) {
    chunk += `${JSON.stringify(entry)}\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
}

/** Imports the entries into the audit store of a data dir whose server is stopped; returns how many were added. */
export async function importAuditDataset(dataDir: string, options: AuditDatasetOptions): Promise<number> {
  const database = await Database.open({ dataDir, logger: createLogger('warn') });
  const store = new SqlAuditStore(database);
  try {
    const entries = generateAuditEntries({
      count: options.count,
      endMs: options.endMs,
      seed: options.seed ?? 7,
    });
    const result = await store.importEntries(entries);
    return result.added;
  } finally {
    await store.close();
    await database.close();
  }
}
