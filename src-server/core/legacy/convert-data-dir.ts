import { createHash } from 'node:crypto';
import { mkdir, rename } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { insertEntriesWithIds, AUDIT_SEQUENCE, type PreparedEntry } from '../audit/sql/audit-writes.js';
import { contentKey } from '../audit/sql/audit-rows.js';
import { normalizeEntry } from '../audit/normalize-entry.js';
import { KEY_NAMES, type KeyStore } from '../config-store/key-store.js';
import { allRecords, assembleConfig } from '../config-store/config-records.js';
import { markCreated, readCurrent, RecordOrder, writeChanges } from '../config-store/config-rows.js';
import { migrate } from '../config-store/migrations.js';
import type { ConfigData } from '../model/config-model.js';
import type { Logger } from '../logging/logger.js';
import type { MonitoringRecord } from '../monitoring/monitoring-record.js';
import { insertRecords, MONITORING_SEQUENCE } from '../monitoring/sql/monitoring-writes.js';
import { RECORD_COLUMNS, recordOfRow } from '../monitoring/sql/monitoring-rows.js';
import type { Database, Tx } from '../storage/database.js';
import { ErrorCode } from '../contracts/error-codes.js';
import { GatehouseError } from '../errors/gatehouse-error.js';
import { legacyPathsIn } from './legacy-files.js';
import {
  readLegacyAuditEntries,
  readLegacyConfig,
  readLegacyDocuments,
  readLegacyKeys,
  readLegacyMonitoringRecords,
  scanLegacyAudit,
} from './legacy-sources.js';

const MARKER = 'legacy-conversion';
const CHUNK = 5_000;

export interface ConversionOutcome {
  configuration: boolean;
  documents: number;
  auditEntries: number;
  monitoringRecords: number;
  /** Where the old files were moved. */
  movedTo: string;
}

export class ConversionError extends GatehouseError {
  override name = 'ConversionError';
  constructor(message: string, options?: ErrorOptions) {
    super(ErrorCode.GH_ERR_CONVERSION_FAILED, message, options);
  }
}

/**
 * Converts a data dir written before the SQL storage: the lowdb configuration and its documents, the key files,
 * and the audit and monitoring segment logs go into the database in one transaction, which commits only after
 * the rows read back match the sources (counts, and digests of every entry's content and every record). The old
 * files are then moved aside, not deleted. Undefined when there is nothing to convert.
 */
export async function convertLegacyDataDir(input: {
  dataDir: string;
  database: Database;
  keys: KeyStore;
  logger: Logger;
  now: () => number;
}): Promise<ConversionOutcome | undefined> {
  const { dataDir, database, logger } = input;
  const present = legacyPathsIn(dataDir);
  if (present.length === 0) return undefined;
  const done = await database.db
    .selectFrom('meta')
    .select('value')
    .where('key', '=', MARKER)
    .executeTakeFirst();
  let outcome: Omit<ConversionOutcome, 'movedTo'>;
  if (done) {
    outcome = JSON.parse(done.value) as Omit<ConversionOutcome, 'movedTo'>;
  } else {
    await refuseIfInUse(database);
    logger.info({ dataDir }, 'converting the data dir to the SQL storage (once)');
    const keys = await readLegacyKeys(dataDir);
    if (keys.signingKey) await input.keys.adopt(KEY_NAMES.signingKey, keys.signingKey);
    if (keys.apiKeyDigest) await input.keys.adopt(KEY_NAMES.apiKeyDigest, keys.apiKeyDigest);
    const damage: string[] = [];
    const onDamage = (details: { file: string; offset: number; reason: string }) =>
      damage.push(`${details.file} at ${details.offset}: ${details.reason}`);
    outcome = await database.transaction((trx) => convert(trx, input, onDamage));
    if (damage.length > 0) {
      logger.warn(
        { damage: damage.slice(0, 20), count: damage.length },
        'the old logs had damaged records; they were skipped',
      );
    }
  }
  const movedTo = await moveAside(dataDir, present, input.now());
  logger.info(
    { ...outcome, movedTo },
    'the data dir was converted to the SQL storage; the old files can be deleted',
  );
  return { ...outcome, movedTo };
}

async function convert(
  trx: Tx,
  input: { dataDir: string; database: Database; now: () => number },
  onDamage: (details: { file: string; offset: number; reason: string }) => void,
): Promise<Omit<ConversionOutcome, 'movedTo'>> {
  const { dataDir, database } = input;
  const recordedAt = input.now();

  const config = await readLegacyConfig(dataDir);
  if (config !== undefined) {
    // Brought to this version's shape first: the rows hold records of the current schema only.
    const data = migrate(JSON.parse(config) as ConfigData, new Date(recordedAt));
    await writeChanges(database, trx, allRecords(data), new RecordOrder(), recordedAt);
    await markCreated(trx, recordedAt);
    const back = assembleConfig((await readCurrent(trx)).rows);
    if (JSON.stringify(back) !== JSON.stringify(data))
      throw new ConversionError('The configuration did not read back as written.');
  }

  const documents = await readLegacyDocuments(dataDir);
  for (const { name, content } of documents) {
    await trx
      .insertInto('api_documents')
      .values({ name, media_type: null, content, created_at: recordedAt, removed_at: null })
      .execute();
  }
  const storedDocuments = await trx.selectFrom('api_documents').select(['name', 'content']).execute();
  const digestOf = (rows: { name: string; content: Uint8Array }[]) =>
    rows
      .map(({ name, content }) => `${name}:${createHash('sha256').update(content).digest('hex')}`)
      .sort()
      .join('\n');
  if (digestOf(storedDocuments) !== digestOf(documents)) {
    throw new ConversionError('The API documents did not read back as written.');
  }

  const auditEntries = await convertAudit(trx, database, dataDir, recordedAt, onDamage);
  const monitoringRecords = await convertMonitoring(trx, database, dataDir, recordedAt, onDamage);
  const outcome = {
    configuration: config !== undefined,
    documents: documents.length,
    auditEntries,
    monitoringRecords,
  };
  await trx
    .insertInto('meta')
    .values({ key: MARKER, value: JSON.stringify(outcome) })
    .execute();
  return outcome;
}

/** Entries keep their ids; each one's content digest must equal the one the old log stored with it. */
async function convertAudit(
  trx: Tx,
  database: Database,
  dataDir: string,
  recordedAt: number,
  onDamage: (details: { file: string; offset: number; reason: string }) => void,
): Promise<number> {
  const { removed, highestId } = await scanLegacyAudit(dataDir, onDamage);
  const source = createHash('sha256');
  let written = 0;
  let chunk: { id: number; entry: PreparedEntry }[] = [];
  const flush = async () => {
    await insertEntriesWithIds(database, trx, chunk, recordedAt);
    written += chunk.length;
    chunk = [];
  };
  for await (const { entry, hash } of readLegacyAuditEntries(dataDir, removed, onDamage)) {
    const { id, ...fields } = entry;
    const normalized = normalizeEntry(fields);
    const recomputed = contentKey(normalized.entry, normalized.timeMs);
    if (recomputed !== hash) {
      throw new ConversionError(
        `Audit entry ${id} does not match the content digest stored with it; nothing was converted.`,
      );
    }
    source.update(`${id}:${hash}\n`);
    chunk.push({ id, entry: { ...normalized, hash } });
    if (chunk.length >= CHUNK) await flush();
  }
  await flush();
  if (highestId > 0) await database.raiseSequence(trx, AUDIT_SEQUENCE, highestId);

  const stored = createHash('sha256');
  let count = 0;
  for (let after = 0; ;) {
    const rows = await trx
      .selectFrom('audit_entries')
      .select(['id', 'content_hash'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(CHUNK)
      .execute();
    for (const row of rows) stored.update(`${row.id}:${row.content_hash}\n`);
    count += rows.length;
    if (rows.length < CHUNK) break;
    after = rows.at(-1)!.id;
  }
  if (count !== written || stored.digest('hex') !== source.digest('hex')) {
    throw new ConversionError(
      `The audit trail did not read back as written (${count} of ${written} entries).`,
    );
  }
  return written;
}

/** Records keep their ids; every record must read back exactly as the old log held it. */
async function convertMonitoring(
  trx: Tx,
  database: Database,
  dataDir: string,
  recordedAt: number,
  onDamage: (details: { file: string; offset: number; reason: string }) => void,
): Promise<number> {
  const source = createHash('sha256');
  let written = 0;
  let highestId = 0;
  let chunk: MonitoringRecord[] = [];
  const flush = async () => {
    const times = Float64Array.from(chunk, (record) => Date.parse(record.time));
    const ids = chunk.map((record) => record.id);
    await insertRecords(database, trx, [{ records: chunk, times, kept: chunk.length }], ids, recordedAt);
    written += chunk.length;
    chunk = [];
  };
  const seen = new Set<number>();
  for await (const record of readLegacyMonitoringRecords(dataDir, onDamage)) {
    if (seen.has(record.id)) continue;
    seen.add(record.id);
    highestId = Math.max(highestId, record.id);
    source.update(`${JSON.stringify(record)}\n`);
    chunk.push(record);
    if (chunk.length >= CHUNK) await flush();
  }
  await flush();
  if (highestId > 0) await database.raiseSequence(trx, MONITORING_SEQUENCE, highestId);

  const stored = createHash('sha256');
  let count = 0;
  const order = [...seen];
  for (let start = 0; start < order.length; start += CHUNK) {
    const ids = order.slice(start, start + CHUNK);
    const rows = await trx
      .selectFrom('monitoring_records')
      .select(RECORD_COLUMNS)
      .where('id', 'in', ids)
      .execute();
    const byId = new Map(rows.map((row) => [row.id, row]));
    for (const id of ids) {
      const row = byId.get(id);
      if (row) stored.update(`${JSON.stringify(recordOfRow(row))}\n`);
    }
    count += rows.length;
  }
  if (count !== written || stored.digest('hex') !== source.digest('hex')) {
    throw new ConversionError(
      `API monitoring did not read back as written (${count} of ${written} records).`,
    );
  }
  return written;
}

async function refuseIfInUse(database: Database): Promise<void> {
  const config = await database.db.selectFrom('config_records').select('key').limit(1).executeTakeFirst();
  const audit = await database.db.selectFrom('audit_entries').select('id').limit(1).executeTakeFirst();
  if (config || audit) {
    throw new ConversionError(
      `The data dir holds files of an older Gatehouse (config/store.json, audit/, monitoring/…) but the database at ${database.location} is already in use. Move those files out of the data dir, or start with an empty database to convert them.`,
    );
  }
}

/** Moves the converted files into `pre-sql-<time>/` in the data dir, keeping their relative paths. */
async function moveAside(dataDir: string, paths: string[], now: number): Promise<string> {
  const stamp = new Date(now)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  const target = join(dataDir, `pre-sql-${stamp}`);
  for (const path of paths) {
    const destination = join(target, relative(dataDir, path));
    await mkdir(dirname(destination), { recursive: true, mode: 0o700 });
    await rename(path, destination);
  }
  return target;
}
