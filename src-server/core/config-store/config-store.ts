import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Low } from 'lowdb';
import type { ConfigData } from '../model/config-model.js';
import { DurableJsonFile } from './durable-json-adapter.js';
import { CURRENT_SCHEMA_VERSION, migrate } from './migrations.js';

export const CONFIG_STORE_FILE = 'store.json';

/**
 * The lowdb configuration store. Reads are synchronous on the in-memory document; writes are serialized and
 * durable when `update` resolves. Readers must treat what `data` returns as read-only.
 */
export class ConfigStore {
  readonly #db: Low<ConfigData>;
  readonly documentsDir: string;
  #queue: Promise<unknown> = Promise.resolve();
  readonly #listeners = new Set<(data: ConfigData) => void>();

  private constructor(db: Low<ConfigData>, documentsDir: string) {
    this.#db = db;
    this.documentsDir = documentsDir;
  }

  static async open(dir: string, now: () => Date = () => new Date()): Promise<ConfigStore> {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const documentsDir = join(dir, 'documents');
    await mkdir(documentsDir, { recursive: true, mode: 0o700 });
    const db = new Low<ConfigData>(new DurableJsonFile(join(dir, CONFIG_STORE_FILE)), emptyData(now()));
    await db.read();
    const before = db.data.schemaVersion;
    if (before > CURRENT_SCHEMA_VERSION) {
      throw new Error(
        `The configuration store has schema version ${before}, newer than this Gatehouse understands (${CURRENT_SCHEMA_VERSION}). Upgrade Gatehouse.`,
      );
    }
    db.data = migrate(db.data, now());
    if (before !== db.data.schemaVersion || before === 0) await db.write();
    return new ConfigStore(db, documentsDir);
  }

  get data(): Readonly<ConfigData> {
    return this.#db.data;
  }

  /**
   * Applies a change and persists it. Changes run one at a time, in order. If the mutator throws, nothing is
   * written and the in-memory document is restored.
   */
  update<R>(mutator: (data: ConfigData) => R | Promise<R>): Promise<R> {
    const run = async (): Promise<R> => {
      const snapshot = structuredClone(this.#db.data);
      try {
        const result = await mutator(this.#db.data);
        await this.#db.write();
        for (const listener of this.#listeners) listener(this.#db.data);
        return result;
      } catch (error) {
        this.#db.data = snapshot;
        throw error;
      }
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

  async close(): Promise<void> {
    await this.#queue;
  }
}

/** A new store; the migrations fill in every collection. */
function emptyData(now: Date): ConfigData {
  return {
    schemaVersion: 0,
    tenant: { id: randomUUID(), name: 'Local tenant', createdAt: now.toISOString() },
  } as ConfigData;
}
