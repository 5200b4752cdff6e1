import type { Database } from '../storage/database.js';

export class DocumentNotFoundError extends Error {
  override name = 'DocumentNotFoundError';
}

/**
 * Imported API documents, by name, in the database beside the configuration that names them. A removed document
 * keeps its row (marked removed) for the restore window, then is purged.
 */
export class DocumentStore {
  constructor(
    private readonly database: Database,
    private readonly now: () => number,
  ) {}

  /** Stores a new document; durable when it resolves. */
  async write(name: string, content: Uint8Array, mediaType?: string): Promise<void> {
    await this.database.db
      .insertInto('api_documents')
      .values({
        name,
        media_type: mediaType ?? null,
        content: Buffer.from(content.buffer, content.byteOffset, content.byteLength),
        created_at: this.now(),
        removed_at: null,
      })
      .execute();
  }

  async read(name: string): Promise<Buffer> {
    const row = await this.database.db
      .selectFrom('api_documents')
      .select('content')
      .where('name', '=', name)
      .where('removed_at', 'is', null)
      .executeTakeFirst();
    if (!row) throw new DocumentNotFoundError(`No stored document is named ${name}.`);
    return Buffer.from(row.content);
  }

  /** Marks a document no record names any more as removed. */
  async remove(name: string): Promise<void> {
    await this.database.db
      .updateTable('api_documents')
      .set({ removed_at: this.now() })
      .where('name', '=', name)
      .where('removed_at', 'is', null)
      .execute();
  }

  /** Names of the documents not removed. */
  async names(): Promise<string[]> {
    const rows = await this.database.db
      .selectFrom('api_documents')
      .select('name')
      .where('removed_at', 'is', null)
      .orderBy('name')
      .execute();
    return rows.map((row) => row.name);
  }

  async purgeRemoved(before: number): Promise<void> {
    await this.database.db.deleteFrom('api_documents').where('removed_at', '<', before).execute();
  }
}
