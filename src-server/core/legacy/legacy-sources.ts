import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AuditEntry } from '../audit/audit-entry.js';
import type { MonitoringRecord } from '../monitoring/monitoring-record.js';
import { decodeAuditRecord } from './audit-record-codec.js';
import { LEGACY_PATHS } from './legacy-files.js';
import { BlockReader } from './monitoring-block-codec.js';
import { decodeMonitoringRecord, RecordCodecError } from './monitoring-record-codec.js';
import { readSegmentLog, type DamageReporter } from './segment-files.js';

/** The configuration document, if the data dir has one. */
export async function readLegacyConfig(dataDir: string): Promise<string | undefined> {
  return readOptional(join(dataDir, LEGACY_PATHS.configFile));
}

export async function readLegacyDocuments(dataDir: string): Promise<{ name: string; content: Buffer }[]> {
  const dir = join(dataDir, LEGACY_PATHS.documentsDir);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const documents = [];
  for (const name of names.filter((candidate) => !candidate.endsWith('.tmp')).sort()) {
    documents.push({ name, content: await readFile(join(dir, name)) });
  }
  return documents;
}

export async function readLegacyKeys(
  dataDir: string,
): Promise<{ signingKey?: string; apiKeyDigest?: string }> {
  const signingKey = await readOptional(join(dataDir, LEGACY_PATHS.signingKeyFile));
  const apiKeyDigest = (await readOptional(join(dataDir, LEGACY_PATHS.apiKeyDigestFile)))?.trim();
  return { ...(signingKey ? { signingKey } : {}), ...(apiKeyDigest ? { apiKeyDigest } : {}) };
}

/**
 * The audit log's ids that tombstones removed, and the highest id it ever used: the first pass over the log (a
 * tombstone comes after the entry it removes).
 */
export async function scanLegacyAudit(
  dataDir: string,
  onDamage: DamageReporter,
): Promise<{ removed: Set<number>; highestId: number }> {
  const removed = new Set<number>();
  let highestId = 0;
  for await (const { payload } of readSegmentLog(join(dataDir, LEGACY_PATHS.auditDir, 'log'), onDamage)) {
    const record = decode(payload, onDamage);
    if (record?.kind === 'tombstone') for (const id of record.ids) removed.add(id);
    else if (record?.kind === 'entry') highestId = Math.max(highestId, record.entry.id);
  }
  return { removed, highestId };
}

/** The entries still in the audit trail, in log order (ids ascending; out-of-order ids skipped, as replay did). */
export async function* readLegacyAuditEntries(
  dataDir: string,
  removed: ReadonlySet<number>,
  onDamage: DamageReporter,
): AsyncGenerator<{ entry: AuditEntry; hash: string }> {
  let highest = 0;
  for await (const { payload } of readSegmentLog(join(dataDir, LEGACY_PATHS.auditDir, 'log'), onDamage)) {
    const record = decode(payload, onDamage);
    if (record?.kind !== 'entry') continue;
    if (record.entry.id <= highest) continue;
    highest = record.entry.id;
    if (!removed.has(record.entry.id)) yield { entry: record.entry, hash: record.hash };
  }
}

/** Every monitoring record of the log (retention at the next start removes the expired ones). */
export async function* readLegacyMonitoringRecords(
  dataDir: string,
  onDamage: DamageReporter,
): AsyncGenerator<MonitoringRecord> {
  const blocks = new BlockReader();
  for await (const { payload } of readSegmentLog(
    join(dataDir, LEGACY_PATHS.monitoringDir, 'log'),
    onDamage,
  )) {
    try {
      blocks.open(payload);
      while (blocks.next()) yield decodeMonitoringRecord(payload, blocks.offset, blocks.length);
    } catch (error) {
      if (!(error instanceof RecordCodecError)) throw error;
      onDamage({ file: 'monitoring log', offset: -1, reason: error.message });
    }
  }
}

function decode(payload: Buffer, onDamage: DamageReporter) {
  try {
    return decodeAuditRecord(payload);
  } catch (error) {
    onDamage({ file: 'audit log', offset: -1, reason: (error as Error).message });
    return undefined;
  }
}

async function readOptional(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
