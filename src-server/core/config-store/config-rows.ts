import { promisify } from 'node:util';
import { createGzip, gunzip } from 'node:zlib';
import type { Database, Db, Tx } from '../storage/database.js';
import type { RecordChange, StoredRecord } from './config-records.js';
import { encodePiecesWithKnown } from '../json/known-json.js';
import { LARGE_WRITE_BYTES, turnForLargeWrite } from '../storage/large-write-turns.js';

// On libuv's thread pool: the main thread only hands the bytes over.
const gunzipOffThread = promisify(gunzip);

/** gzip on libuv's thread pool, fed the pieces as they are (not joined first: see storedForm). */
function gzipPiecesOffThread(pieces: readonly Uint8Array[], level: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const stream = createGzip({ level });
    const output: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => output.push(chunk));
    stream.once('error', reject);
    stream.once('end', () => resolve(Buffer.concat(output)));
    for (const piece of pieces) stream.write(piece);
    stream.end();
  });
}

export const COMMITS = 'config_commits';

/**
 * The SQL side of the configuration. `config_records` keeps a row per version of a record: `valid_to` is null for
 * the current one and the time it was replaced or removed otherwise, so the configuration as it stood at any
 * moment of the restore window is `valid_from <= t < valid_to`. Each commit is a row of `config_commits`; the
 * highest id tells an instance whether another one (sharing a PostgreSQL database) committed since it read.
 */

/** Where each record sits in its collection: a record keeps its place when it changes, new ones go last. */
export class RecordOrder {
  readonly #ordinals = new Map<string, number>();
  #next = 0;

  static of(rows: readonly { kind: string; key: string; ordinal: number }[]): RecordOrder {
    const order = new RecordOrder();
    for (const row of rows) order.#remember(row.kind, row.key, row.ordinal);
    return order;
  }

  ordinalOf(kind: string, key: string): number {
    const known = this.#ordinals.get(`${kind}\u0000${key}`);
    if (known !== undefined) return known;
    const ordinal = this.#next;
    this.#remember(kind, key, ordinal);
    return ordinal;
  }

  #remember(kind: string, key: string, ordinal: number): void {
    this.#ordinals.set(`${kind}\u0000${key}`, ordinal);
    if (ordinal >= this.#next) this.#next = ordinal + 1;
  }
}

export interface CurrentRecords {
  rows: (StoredRecord & { ordinal: number })[];
  commitId: number;
}

/** The current rows, in collection order, and the newest commit. */
export async function readCurrent(db: Db): Promise<CurrentRecords> {
  const rows = await db
    .selectFrom('config_records')
    .select(['kind', 'key', 'data', 'data_deflated', 'ordinal'])
    .where('valid_to', 'is', null)
    .orderBy('ordinal')
    .orderBy('key')
    .execute();
  return { rows: await withRecordData(rows), commitId: await headCommit(db) };
}

/** A row's record as JSON text, from either form (see migration 0017). */
export async function recordJson(row: { data: string; data_deflated: Uint8Array | null }): Promise<string> {
  return row.data_deflated === null ? row.data : (await gunzipOffThread(row.data_deflated)).toString('utf8');
}

async function withRecordData<Row extends { data: string; data_deflated: Uint8Array | null }>(
  rows: Row[],
): Promise<(Omit<Row, 'data_deflated'> & { data: string })[]> {
  return Promise.all(
    rows.map(async ({ data_deflated, ...row }) => ({
      ...row,
      data: await recordJson({ ...row, data_deflated }),
    })),
  );
}

/**
 * A record as its row stores it: the JSON text, or, from LARGE_WRITE_BYTES on, the JSON gzip-compressed off the
 * main thread (bytes the import worker made for an API's operations go to gzip as they are, neither encoded nor
 * copied again).
 */
async function storedForm(record: unknown): Promise<{ data: string; data_deflated: Uint8Array | null }> {
  const pieces = encodePiecesWithKnown(record);
  const length = pieces.reduce((sum, piece) => sum + piece.byteLength, 0);
  if (length < LARGE_WRITE_BYTES)
    return { data: Buffer.concat(pieces).toString('utf8'), data_deflated: null };
  return { data: '', data_deflated: await gzipPiecesOffThread(pieces, DEFLATE_LEVEL) };
}

/** Level 3, as the documents' (control/apis/import-pipeline/revision-details.ts). */
const DEFLATE_LEVEL = 3;

export async function headCommit(db: Db): Promise<number> {
  const head = await db
    .selectFrom(COMMITS)
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return head?.id ?? 0;
}

/** `meta` row: when the database was first given a configuration, where its history (a restore's reach) starts. */
export const CREATED_AT_KEY = 'created_at';

export async function markCreated(db: Db, atMs: number): Promise<void> {
  await db
    .insertInto('meta')
    .values({ key: CREATED_AT_KEY, value: String(atMs) })
    .onConflict((conflict) => conflict.column('key').doNothing())
    .execute();
}

/** The rows as they were at `atMs` (the restore's view), in collection order. */
export async function readAsOf(db: Db, atMs: number): Promise<StoredRecord[]> {
  const rows = await db
    .selectFrom('config_records')
    .select(['kind', 'key', 'data', 'data_deflated'])
    .where('valid_from', '<=', atMs)
    .where((eb) => eb.or([eb('valid_to', 'is', null), eb('valid_to', '>', atMs)]))
    .orderBy('ordinal')
    .orderBy('key')
    .execute();
  return withRecordData(rows);
}

/**
 * Commits `changes` as one commit: the current row of each changed record is closed, and a new one written
 * unless the record was removed. Returns the commit's id.
 */
export async function writeChanges(
  database: Database,
  trx: Tx,
  changes: readonly RecordChange[],
  order: RecordOrder,
  atMs: number,
): Promise<number> {
  const commitId = await database.reserveIds(trx, COMMITS, 1);
  await trx.insertInto(COMMITS).values({ id: commitId, committed_at: atMs }).execute();
  let written = 0;
  for (const change of changes) {
    await trx
      .updateTable('config_records')
      .set({ valid_to: atMs })
      .where('kind', '=', change.kind)
      .where('key', '=', change.key)
      .where('valid_to', 'is', null)
      .execute();
    if (change.record === undefined) continue;
    const stored = await storedForm(change.record);
    const size = stored.data_deflated?.length ?? stored.data.length;
    await turnForLargeWrite(size);
    await trx
      .insertInto('config_records')
      .values({
        kind: change.kind,
        key: change.key,
        commit_id: commitId,
        ordinal: order.ordinalOf(change.kind, change.key),
        valid_from: atMs,
        valid_to: null,
        ...stored,
      })
      .execute();
    written = Math.max(written, size);
  }
  // The commit that follows writes the large rows to the WAL: a turn of its own too.
  await turnForLargeWrite(written);
  return commitId;
}

/** Drops the versions replaced before `before` (what the restore window no longer reaches). */
export async function pruneReplaced(db: Db, before: number): Promise<void> {
  await db.deleteFrom('config_records').where('valid_to', '<', before).execute();
  const head = await headCommit(db);
  await db.deleteFrom(COMMITS).where('committed_at', '<', before).where('id', '<', head).execute();
}

/**
 * Takes the configuration back to the moment `atMs` (a restore): versions written after it go, and those it
 * replaced or removed after it are current again.
 */
export async function rollBackConfig(db: Db, atMs: number): Promise<void> {
  await db.deleteFrom('config_records').where('valid_from', '>', atMs).execute();
  await db.updateTable('config_records').set({ valid_to: null }).where('valid_to', '>', atMs).execute();
  await db.deleteFrom(COMMITS).where('committed_at', '>', atMs).execute();
}
