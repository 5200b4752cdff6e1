import { randomUUID } from 'node:crypto';
import type { Database, Db, Tx } from '../storage/database.js';
import type { Logger } from '../logging/logger.js';
import type { ConfigData } from '../model/config-model.js';
import { CURRENT_SCHEMA_VERSION, migrate } from './migrations.js';
import { DocumentStore } from './document-store.js';
import { ErrorCode } from '../contracts/error-codes.js';
import { GatehouseError } from '../errors/gatehouse-error.js';

const REVISIONS = 'config_revisions';
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
 * The configuration: one JSON document, kept in the database as a revision per committed change (the newest is
 * current; older ones stay for the restore window). Reads are synchronous on the in-memory document; writes are
 * serialized and durable when `update` resolves. Readers must treat what `data` returns as read-only.
 *
 * On PostgreSQL several instances share the document: `update` takes a lock, re-reads the newest revision (another
 * instance may have committed one) and applies the change to that, so no instance loses another's write. Each
 * commit notifies the other instances (`follow`), which read the new revision at once.
 */
export class ConfigStore {
  #data: ConfigData;
  #revision: number;
  #queue: Promise<unknown> = Promise.resolve();
  readonly #listeners = new Set<(data: ConfigData) => void>();
  /** Imported OpenAPI documents, in the same database. */
  readonly documents: DocumentStore;

  private constructor(
    private readonly database: Database,
    private readonly now: () => Date,
    head: { id: number; data: ConfigData },
  ) {
    this.#data = head.data;
    this.#revision = head.id;
    this.documents = new DocumentStore(database.db, () => now().getTime());
  }

  /** Opens the configuration, creating (or upgrading) the document on first use. */
  static async open(database: Database, now: () => Date = () => new Date()): Promise<ConfigStore> {
    const head = await database.transaction(async (trx) => {
      await database.lockExclusively(trx, REVISIONS);
      const stored = await readHead(trx);
      const data = stored ? checkedVersion(stored.data) : emptyData(now());
      const before = data.schemaVersion;
      migrate(data, now());
      if (stored && before === data.schemaVersion) return stored;
      return { id: await insertRevision(database, trx, data, now()), data };
    });
    return new ConfigStore(database, now, head);
  }

  get data(): Readonly<ConfigData> {
    return this.#data;
  }

  /** Id of the revision `data` is. */
  get revision(): number {
    return this.#revision;
  }

  /**
   * Applies a change and commits it as a new revision. Changes run one at a time, in order. If the mutator
   * throws or the commit fails, nothing is written (documents written through `change` included) and the
   * in-memory document is as before.
   */
  update<R>(mutator: (data: ConfigData, change: ConfigChange) => R | Promise<R>): Promise<R> {
    const run = async (): Promise<R> => {
      const before = { data: this.#data, revision: this.#revision };
      try {
        const result = await this.database.transaction(async (trx) => {
          await this.database.lockExclusively(trx, REVISIONS);
          const head = await readHead(trx);
          if (head && head.id !== this.#revision) {
            this.#data = checkedVersion(head.data);
            this.#revision = head.id;
          }
          const working = structuredClone(this.#data);
          const value = await mutator(working, {
            documents: new DocumentStore(trx, () => this.now().getTime()),
          });
          const id = await insertRevision(this.database, trx, working, this.now());
          await this.database.notify(trx, { topic: CONFIG_TOPIC, payload: String(id) });
          this.#data = working;
          this.#revision = id;
          return value;
        });
        for (const listener of this.#listeners) listener(this.#data);
        return result;
      } catch (error) {
        this.#data = before.data;
        this.#revision = before.revision;
        throw error;
      }
    };
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
        if (change.topic === CONFIG_TOPIC && Number(change.payload) > this.#revision) refresh();
      },
      onConnected: refresh,
    });
  }

  /** Reads the newest revision; when another instance committed it, it becomes `data` and listeners hear of it. */
  refresh(): Promise<void> {
    const run = async (): Promise<void> => {
      const head = await readHead(this.database.db);
      if (!head || head.id <= this.#revision) return;
      this.#data = checkedVersion(head.data);
      this.#revision = head.id;
      for (const listener of this.#listeners) listener(this.#data);
    };
    const next = this.#queue.then(run, run);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  /** Called after every committed change (the gateway re-applies its routes from here). */
  onChange(listener: (data: ConfigData) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Drops what the restore window no longer needs: revisions replaced before `before` (the one current at
   * `before` stays) and documents removed before it.
   */
  async prune(before: number): Promise<void> {
    const cutoff = await this.database.db
      .selectFrom(REVISIONS)
      .select((eb) => eb.fn.max('id').as('id'))
      .where('committed_at', '<=', before)
      .executeTakeFirst();
    if (cutoff?.id != null) {
      await this.database.db.deleteFrom(REVISIONS).where('id', '<', cutoff.id).execute();
    }
    await this.documents.purgeRemoved(before);
  }

  async close(): Promise<void> {
    await this.#queue;
  }
}

async function readHead(trx: Db): Promise<{ id: number; data: ConfigData } | undefined> {
  const row = await trx
    .selectFrom(REVISIONS)
    .select(['id', 'document'])
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? { id: row.id, data: JSON.parse(row.document) as ConfigData } : undefined;
}

async function insertRevision(database: Database, trx: Tx, data: ConfigData, now: Date): Promise<number> {
  const id = await database.reserveIds(trx, REVISIONS, 1);
  await trx
    .insertInto(REVISIONS)
    .values({ id, committed_at: now.getTime(), document: JSON.stringify(data) })
    .execute();
  return id;
}

function checkedVersion(data: ConfigData): ConfigData {
  if (data.schemaVersion > CURRENT_SCHEMA_VERSION) {
    throw new NewerConfigurationError(
      `The configuration has schema version ${data.schemaVersion}, newer than this Gatehouse understands (${CURRENT_SCHEMA_VERSION}). Upgrade Gatehouse.`,
    );
  }
  return data;
}

/** A new configuration; the migrations fill in every collection. */
function emptyData(now: Date): ConfigData {
  return {
    schemaVersion: 0,
    tenant: { id: randomUUID(), name: 'Local tenant', createdAt: now.toISOString() },
  } as ConfigData;
}
