import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { withBulkWriteMode } from '../../storage/bulk-write-mode.js';
import { deferIndexes, restoreDeferredIndexes } from '../../storage/deferred-indexes.js';
import type { Database, Tx } from '../../storage/database.js';
import type { ImportProgress, ImportResult, NewAuditEntry } from '../audit-entry.js';
import type { ImportBatch } from '../import-batch.js';
import { prepareImportBatch } from './audit-import-entry.js';
import { TIME_DISORDER_TRIGGERS, TimeDisorderWrites } from './audit-time-disorder-writes.js';
import { AUDIT_SEQUENCE, insertImportEntries, type ImportPick } from './audit-writes.js';

/**
 * Entries per transaction. Each commit writes the pages it changed to the WAL again (the hot ends of eight indexes
 * and of the count tables) and each chunk upserts its own count rows, so fewer, larger chunks cost less CPU; but a
 * chunk's rows are held in memory until it commits (at 20,000 the import's RSS passed 300 MB for no further gain).
 * The WAL grows to about one chunk.
 */
const CHUNK_ENTRIES = 10_000;
const PROGRESS_EVERY = 10_000;
/** Keys of one IN list: far below either engine's limit on parameters. */
const LOOKUP_KEYS = 5_000;

type EntrySource = AsyncIterable<NewAuditEntry | readonly NewAuditEntry[]> | Iterable<NewAuditEntry>;

/**
 * Bulk import in chunks, one transaction each. The chunks commit without waiting for the disk, the last one
 * waits (its sync covers those before it), so the import is durable when it resolves; a crash meanwhile leaves a
 * prefix that re-importing completes. An entry whose content (digest and time) is already stored, or came
 * earlier in the same chunk, is a duplicate within the tenant's trail (another tenant may hold the same entry).
 * The first invalid entry stops the import after everything before it is written, so the outcome does not depend
 * on chunking. On SQLite it writes with a larger page cache (`withBulkWriteMode`).
 */
export async function importAuditEntries(
  database: Database,
  entries: EntrySource,
  onProgress: ((progress: ImportProgress) => void) | undefined,
  now: () => number,
  tenant: string,
  /** Always true but in bench:audit's "import without chaining". */
  chained = true,
): Promise<ImportResult> {
  return await importPreparedEntries(database, preparedBatches(entries), onProgress, now, tenant, {
    chained,
  });
}

/**
 * `importAuditEntries` of entries already prepared (`prepareImportBatch`), e.g. by a worker thread. `offline`: the
 * caller holds the data dir alone, and an import that grows large against the trail defers some indexes
 * (`DEFERRED_INDEXES`).
 */
export async function importPreparedEntries(
  database: Database,
  batches: AsyncIterable<ImportBatch>,
  onProgress: ((progress: ImportProgress) => void) | undefined,
  now: () => number,
  tenant: string,
  {
    chained = true,
    offline = false,
    deferAfter = DEFER_AFTER_ENTRIES,
  }: {
    chained?: boolean;
    offline?: boolean;
    /** Tests: entries read before the indexes are deferred (at least as many as the trail held). */
    deferAfter?: number;
  } = {},
): Promise<ImportResult> {
  const deferral = offline ? await indexDeferral(database, deferAfter) : undefined;
  let result: ImportResult;
  try {
    result = await withBulkWriteMode(database, () =>
      importInChunks(database, batches, onProgress, now, tenant, chained, deferral),
    );
  } catch (error) {
    // The import's own error is the one to report; indexes left unbuilt are built at the next open.
    if (deferral?.deferred) await restoreDeferredIndexes(database).catch(() => undefined);
    throw error;
  }
  if (deferral?.deferred) {
    onProgress?.({ ...result, indexing: true });
    await restoreDeferredIndexes(database);
  }
  return result;
}

/**
 * SQLite: the audit indexes and triggers an offline import drops once it is large against the trail, and builds
 * again at its end. Those whose rows land at random places (by user, by action, by instance, the agent window,
 * resources by resource), where a row kept row by row goes into a page somewhere in the middle of the tree and
 * CREATE INDEX sorts them once instead; the time and chain indexes, which an import in time order appends to, with
 * the time-disorder triggers that read the time index per row (`TimeDisorderWrites` does their work meanwhile).
 * The tenant index stays: the duplicate check reads it.
 * An import of 200,000 entries into an empty trail, SQLite's part alone (rows and full-text documents, 10,000 per
 * transaction, replayed by a script): 4.97 s of CPU with every index kept row by row, 3.9–4.2 s with the first five
 * built at the end.
 */
const DEFERRED_INDEXES = [
  'audit_entries_by_tenant_user',
  'audit_entries_by_tenant_action',
  'audit_entries_by_instance',
  'audit_entries_agent_window',
  'audit_resources_by_resource',
  'audit_entries_by_time',
  'audit_entries_by_chain',
  ...TIME_DISORDER_TRIGGERS,
  // The count tables' indexes besides their keys (the upserts find their rows by the key): the per-name ones take
  // rows at random places, and those holding the count move an entry at every increment. Replayed (200,000
  // entries' count rows, 20 transactions): 0.78–0.86 s of CPU kept row by row, 0.43–0.49 s + 0.16–0.18 s built.
  'audit_action_day_counts_by_day',
  'audit_action_day_counts_names',
  'audit_action_day_counts_by_name',
  'audit_user_day_counts_by_day',
  'audit_user_day_counts_names',
  'audit_user_day_counts_by_name',
  'audit_action_user_day_counts_by_user',
  'audit_action_hour_counts_with_n',
  'audit_action_hour_counts_by_name',
  'audit_user_hour_counts_with_n',
  'audit_user_hour_counts_by_name',
];

/**
 * Entries an import reads before it defers the indexes, and at least as many as the trail held when it began: from
 * there on, building them anew over the whole trail costs less than keeping them, and a small import never drops
 * an index.
 */
const DEFER_AFTER_ENTRIES = 50_000;

interface IndexDeferral {
  /** Entries read after which the import defers the indexes. */
  after: number;
  deferred: boolean;
  /** Set while the time-disorder triggers are dropped. */
  disorder?: TimeDisorderWrites;
}

async function indexDeferral(database: Database, deferAfter: number): Promise<IndexDeferral | undefined> {
  if (database.kind !== 'sqlite') return undefined;
  // The highest id: an upper bound of the trail's size in one seek (count(*) reads a whole index).
  const row = await database.db
    .selectFrom('audit_entries')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return {
    after: Math.max(deferAfter, row?.id ?? 0),
    deferred: false,
  };
}

/** Prepared as they are read, so that a lazy source stays lazy; nothing after an invalid entry is read. */
async function* preparedBatches(entries: EntrySource): AsyncGenerator<ImportBatch> {
  const items = Symbol.asyncIterator in entries ? entries : syncItems(entries);
  for await (const item of items) {
    const batch = prepareImportBatch(
      Array.isArray(item) ? (item as readonly NewAuditEntry[]) : [item as NewAuditEntry],
    );
    yield batch;
    if (batch.invalid !== undefined) return;
  }
}

// eslint-disable-next-line @typescript-eslint/require-await -- an async view of a synchronous source
async function* syncItems(entries: Iterable<NewAuditEntry>): AsyncGenerator<NewAuditEntry> {
  yield* entries;
}

/** A stretch of a batch: entries `from` to `to` (exclusive). */
interface Stretch {
  batch: ImportBatch;
  from: number;
  to: number;
}

async function importInChunks(
  database: Database,
  batches: AsyncIterable<ImportBatch>,
  onProgress: ((progress: ImportProgress) => void) | undefined,
  now: () => number,
  tenant: string,
  chained: boolean,
  deferral: IndexDeferral | undefined,
): Promise<ImportResult> {
  const progress: ImportProgress = { read: 0, added: 0, duplicates: 0 };
  let chunk: Stretch[] = [];
  let chunkEntries = 0;
  const flush = async (last = false): Promise<void> => {
    if (chunkEntries === 0 && !last) return;
    const written = chunk;
    chunk = [];
    chunkEntries = 0;
    progress.added += await writeChunk(database, written, now(), last, tenant, chained, deferral?.disorder);
    progress.duplicates = progress.read - progress.added;
    if (deferral && !deferral.deferred && !last && progress.read >= deferral.after) {
      deferral.deferred = true;
      // The trail's ends read before the time index goes.
      deferral.disorder = TimeDisorderWrites.read(database);
      await deferIndexes(database, DEFERRED_INDEXES);
    }
  };
  for await (const batch of batches) {
    // Stretches end where a chunk is full or a progress report is due, as if the entries came one by one.
    for (let from = 0; from < batch.count;) {
      const to = Math.min(
        batch.count,
        from + CHUNK_ENTRIES - chunkEntries,
        from + PROGRESS_EVERY - (progress.read % PROGRESS_EVERY),
      );
      chunk.push({ batch, from, to });
      chunkEntries += to - from;
      progress.read += to - from;
      from = to;
      if (chunkEntries >= CHUNK_ENTRIES) {
        await flush();
        await yieldToEventLoop();
      }
      if (onProgress && progress.read % PROGRESS_EVERY === 0) {
        onProgress({ ...progress, duplicates: progress.read - progress.added - chunkEntries });
      }
    }
    if (batch.invalid !== undefined) {
      await flush(true);
      throw new Error(`Import stopped at entry ${progress.read + 1}: ${batch.invalid.message}`, {
        cause: batch.invalid,
      });
    }
  }
  await flush(true);
  const result = { read: progress.read, added: progress.added, duplicates: progress.read - progress.added };
  onProgress?.({ ...result });
  return result;
}

/**
 * The time and content digest of a tenant's stored entries at the given times: what makes an entry a duplicate.
 * Read from the tenant index alone (migration 0019).
 */
export function storedContentKeys(reader: Pick<Tx, 'selectFrom'>, tenant: string, times: readonly number[]) {
  return reader
    .selectFrom('audit_entries')
    .select(['time_ms', 'content_hash'])
    .where('tenant', '=', tenant)
    .where('time_ms', 'in', times);
}

/** The time of a tenant's newest stored entry (undefined: none), from the tenant index's last entry. */
async function newestStoredTime(reader: Pick<Tx, 'selectFrom'>, tenant: string): Promise<number | undefined> {
  const row = await reader
    .selectFrom('audit_entries')
    .select('time_ms')
    .where('tenant', '=', tenant)
    .orderBy('time_ms', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.time_ms;
}

/**
 * Pairs of a time and a content digest, without a string built per pair (this runs for every imported entry):
 * keyed by the time, which entries rarely share; digests of a time already taken go into a set of their own.
 */
class ContentKeys {
  private readonly firstAt = new Map<number, string>();
  private readonly more = new Set<string>();

  has(timeMs: number, hash: string): boolean {
    const first = this.firstAt.get(timeMs);
    return first !== undefined && (first === hash || this.more.has(`${timeMs}:${hash}`));
  }

  add(timeMs: number, hash: string): void {
    const first = this.firstAt.get(timeMs);
    if (first === undefined) this.firstAt.set(timeMs, hash);
    else if (first !== hash) this.more.add(`${timeMs}:${hash}`);
  }
}

async function writeChunk(
  database: Database,
  chunk: readonly Stretch[],
  recordedAt: number,
  durable: boolean,
  tenant: string,
  chained: boolean,
  disorder: TimeDisorderWrites | undefined,
): Promise<number> {
  return database.transaction(
    async (trx) => {
      const stored = new ContentKeys();
      // Only times up to the tenant's newest stored entry can be stored already: a chunk of newer entries (an
      // import into an empty trail, or one that continues it) looks up nothing.
      const newest = await newestStoredTime(trx, tenant);
      if (newest !== undefined) {
        const timeSet = new Set<number>();
        for (const { batch, from, to } of chunk)
          for (let k = from; k < to; k++) if (batch.timeMs[k]! <= newest) timeSet.add(batch.timeMs[k]!);
        const times = [...timeSet];
        for (let start = 0; start < times.length; start += LOOKUP_KEYS) {
          const rows = await storedContentKeys(
            trx,
            tenant,
            times.slice(start, start + LOOKUP_KEYS),
          ).execute();
          for (const row of rows) stored.add(row.time_ms, row.content_hash);
        }
      }
      const picks: ImportPick[] = [];
      let fresh = 0;
      for (const { batch, from, to } of chunk) {
        const indices: number[] = [];
        for (let k = from; k < to; k++) {
          const timeMs = batch.timeMs[k]!;
          const hash = batch.hash[k]!;
          if (stored.has(timeMs, hash)) continue;
          stored.add(timeMs, hash);
          indices.push(k);
        }
        if (indices.length > 0) picks.push({ batch, indices });
        fresh += indices.length;
      }
      if (durable) {
        // A write in the durable commit: its sync covers the relaxed commits of the chunks before it.
        await trx
          .insertInto('meta')
          .values({ key: 'audit.last-import', value: new Date(recordedAt).toISOString() })
          .onConflict((conflict) =>
            conflict.column('key').doUpdateSet({ value: (eb) => eb.ref('excluded.value') }),
          )
          .execute();
      }
      if (fresh > 0) {
        const first = await database.reserveIds(trx, AUDIT_SEQUENCE, fresh);
        if (disorder) {
          let id = first;
          for (const { batch, indices } of picks)
            for (const k of indices) disorder.note(id++, batch.timeMs[k]!);
        }
        await insertImportEntries(database, trx, picks, first, recordedAt, tenant, chained);
      }
      return fresh;
    },
    { relaxed: !durable },
  );
}
