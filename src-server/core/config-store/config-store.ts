import { randomUUID } from 'node:crypto';
import { Immer, current, isDraft, type Draft } from 'immer';
import type { Database, Tx } from '../storage/database.js';
import type { Logger } from '../logging/logger.js';
import type { ConfigData } from '../model/config-model.js';
import { CURRENT_SCHEMA_VERSION, migrate } from './migrations.js';
import { DocumentStore } from './document-store.js';
import { allRecords, assembleConfig, changedRecords, type RecordChange } from './config-records.js';
import {
  COMMITS,
  headCommit,
  markCreated,
  pruneReplaced,
  readCurrent,
  RecordOrder,
  writeChanges,
} from './config-rows.js';
import { ErrorCode } from '../contracts/error-codes.js';
import { GatehouseError } from '../errors/gatehouse-error.js';

/** The topic of the change notifications a commit sends to the other instances on the database. */
const CONFIG_TOPIC = 'config';

/** What a configuration change can write besides the configuration, in the change's transaction. */
export interface ConfigChange {
  documents: DocumentStore;
}

export class NewerConfigurationError extends GatehouseError {
  override name = 'NewerConfigurationError';
  constructor(message: string) {
    super(ErrorCode.GH_ERR_NEWER_CONFIGURATION, message);
  }
}

/**
 * Drafts share every record a change does not touch with the data before it, so a change costs what it touches:
 * no copy of the whole configuration, and only the rows of changed records are written. Not frozen: readers have
 * always been trusted to treat `data` as read-only, and freezing every new record (an API of 65,000 operations)
 * would cost what the sharing saves.
 */
const drafts = new Immer({ autoFreeze: false });

/**
 * The configuration, kept in the database as a row per record (see config-rows.ts: the versions of the restore
 * window stay beside the current ones). Reads are synchronous on the in-memory data; writes are serialized and
 * durable when `update` resolves. Readers must treat what `data` returns as read-only: a change makes a new
 * object for what it changes and leaves the old one as it was.
 *
 * On PostgreSQL several instances share the configuration: `update` takes a lock, re-reads the rows when another
 * instance committed since (the newest commit tells) and applies the change to that, so no write is lost.
 * Each commit notifies the other instances (`follow`), which read the current rows at once.
 */
export class ConfigStore {
  #data: ConfigData;
  #commitId: number;
  #order: RecordOrder;
  #queue: Promise<unknown> = Promise.resolve();
  readonly #listeners = new Set<(data: ConfigData) => void>();
  /** Imported OpenAPI documents, in the same database. */
  readonly documents: DocumentStore;

  private constructor(
    private readonly database: Database,
    private readonly now: () => Date,
    head: Loaded,
  ) {
    this.#data = head.data;
    this.#commitId = head.commitId;
    this.#order = head.order;
    this.documents = new DocumentStore(database.db, () => now().getTime());
  }

  /** Opens the configuration, creating (or upgrading) it on first use. */
  static async open(database: Database, now: () => Date = () => new Date()): Promise<ConfigStore> {
    const head = await database.transaction(async (trx) => {
      await database.lockExclusively(trx, COMMITS);
      const stored = await load(trx);
      if (!stored) {
        const data = migrate(emptyData(now()), now());
        const order = new RecordOrder();
        const commitId = await writeChanges(database, trx, allRecords(data), order, now().getTime());
        await markCreated(trx, now().getTime());
        return { data, commitId, order };
      }
      if (stored.data.schemaVersion === CURRENT_SCHEMA_VERSION) return stored;
      const data = drafts.produce(stored.data, (draft) => void migrate(draft as ConfigData, now()));
      const changes = changedRecords(stored.data, data);
      const commitId = await writeChanges(database, trx, changes, stored.order, now().getTime());
      return { data, commitId, order: stored.order };
    });
    return new ConfigStore(database, now, head);
  }

  get data(): Readonly<ConfigData> {
    return this.#data;
  }

  /** Id of the commit `data` is as of (it grows with every committed change). */
  get revision(): number {
    return this.#commitId;
  }

  /**
   * Applies a change and commits the records it changed. Changes run one at a time, in order. If the mutator
   * throws or the commit fails, nothing is written (documents written through `change` included) and `data` is as
   * before. A change that changes nothing commits nothing and tells no listener.
   */
  update<R>(mutator: (data: ConfigData, change: ConfigChange) => R | Promise<R>): Promise<R> {
    const run = () => this.#commit(mutator);
    const next = this.#queue.then(run, run);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  /**
   * Follows what other instances on the database commit: a notification names the new revision, and a
   * reconnection of the notification channel (notifications sent meanwhile are lost) re-reads the newest. A
   * newer revision becomes `data` and the listeners hear of it, as for a change made here. Nothing to follow on
   * SQLite. Returns the function that stops following.
   */
  follow(logger: Logger): () => void {
    const refresh = () => {
      this.refresh().catch((error: unknown) =>
        logger.warn({ err: error }, 'the configuration committed by another instance could not be read yet'),
      );
    };
    return this.database.subscribe({
      onChange: (change) => {
        if (change.topic === CONFIG_TOPIC && Number(change.payload) > this.#commitId) refresh();
      },
      onConnected: refresh,
    });
  }

  /** Reads the current rows when another instance committed since; they become `data` and listeners hear of it. */
  refresh(): Promise<void> {
    const run = async (): Promise<void> => {
      const changed = await this.database.transaction(async (trx) => {
        await this.database.lockExclusively(trx, COMMITS);
        const before = this.#commitId;
        await this.#catchUp(trx);
        return this.#commitId !== before;
      });
      if (changed) for (const listener of this.#listeners) listener(this.#data);
    };
    const next = this.#queue.then(run, run);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  async #commit<R>(mutator: (data: ConfigData, change: ConfigChange) => R | Promise<R>): Promise<R> {
    let changes: RecordChange[] = [];
    const outcome = await this.database.transaction(async (trx) => {
      await this.database.lockExclusively(trx, COMMITS);
      await this.#catchUp(trx);
      const before = this.#data;
      const draft = drafts.createDraft(before);
      const value = detached(
        await mutator(draft as ConfigData, { documents: new DocumentStore(trx, () => this.now().getTime()) }),
      );
      const after: ConfigData = drafts.finishDraft(draft);
      changes = changedRecords(before, after);
      const commitId =
        changes.length === 0
          ? this.#commitId
          : await writeChanges(this.database, trx, changes, this.#order, this.now().getTime());
      if (changes.length > 0)
        await this.database.notify(trx, { topic: CONFIG_TOPIC, payload: String(commitId) });
      return { value, after, commitId };
    });
    this.#data = outcome.after;
    this.#commitId = outcome.commitId;
    if (changes.length > 0) for (const listener of this.#listeners) listener(this.#data);
    return outcome.value;
  }

  /** Another instance committed since this one read: read the current rows again. */
  async #catchUp(trx: Tx): Promise<void> {
    if ((await headCommit(trx)) === this.#commitId) return;
    const stored = await load(trx);
    if (!stored) return;
    this.#data = stored.data;
    this.#commitId = stored.commitId;
    this.#order = stored.order;
  }

  /** Called after every committed change (the gateway re-applies its routes from here). */
  onChange(listener: (data: ConfigData) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Drops what the restore window no longer needs: record versions replaced before `before` and documents
   * removed before it.
   */
  async prune(before: number): Promise<void> {
    await pruneReplaced(this.database.db, before);
    await this.documents.purgeRemoved(before);
  }

  async close(): Promise<void> {
    await this.#queue;
  }
}

interface Loaded {
  data: ConfigData;
  commitId: number;
  order: RecordOrder;
}

async function load(trx: Tx): Promise<Loaded | undefined> {
  const { rows, commitId } = await readCurrent(trx);
  const data = assembleConfig(rows);
  if (!data) return undefined;
  if (data.schemaVersion > CURRENT_SCHEMA_VERSION) {
    throw new NewerConfigurationError(
      `The configuration has schema version ${data.schemaVersion}, newer than this Gatehouse understands (${CURRENT_SCHEMA_VERSION}). Upgrade Gatehouse.`,
    );
  }
  return { data, commitId, order: RecordOrder.of(rows) };
}

/**
 * A mutator may return records of the draft (the API it created or changed); they are copied out before the
 * draft is finished, since a finished draft can no longer be read. Looks a few levels into plain objects and
 * arrays, which is where results keep them.
 */
function detached<T>(value: T, depth = 0): T {
  if (isDraft(value)) return current<T>(value as Draft<T>);
  if (depth >= 4 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item: unknown, index) => {
      const out = detached(item, depth + 1);
      if (out !== item) (copy ??= [...(value as unknown[])])[index] = out;
    });
    return (copy ?? value) as T;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  let copy: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    const out = detached(item, depth + 1);
    if (out !== item) (copy ??= { ...(value as Record<string, unknown>) })[key] = out;
  }
  return (copy ?? value) as T;
}

/** A new configuration; the migrations fill in every collection. */
function emptyData(now: Date): ConfigData {
  return {
    schemaVersion: 0,
    tenant: { id: randomUUID(), name: 'Local tenant', createdAt: now.toISOString() },
  } as ConfigData;
}
