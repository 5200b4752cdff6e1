import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import type { Db } from '../storage/database.js';
import { turnForLargeWrite } from '../storage/large-write-turns.js';
import { ErrorCode } from '../contracts/error-codes.js';
import { GatehouseError } from '../errors/gatehouse-error.js';

export class DocumentNotFoundError extends GatehouseError {
  override name = 'DocumentNotFoundError';
  constructor(message: string) {
    super(ErrorCode.GH_ERR_DOCUMENT_MISSING, message);
  }
}

/**
 * Imported API documents, by name, in the database beside the configuration that names them. A removed document
 * keeps its row (marked removed) for the restore window, then is purged. `db` is the database, or the transaction
 * of a configuration change (`ConfigStore.update` hands the mutator one bound to it, so what it writes commits or
 * rolls back with the change). A document may be stored gzip-compressed (imports store them so, see
 * import-pipeline/revision-details.ts); `read` gives it back as written before compression, decompressing on
 * libuv's thread pool.
 */
export class DocumentStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {}

  /** Stores a new document; durable when it resolves. */
  async write(name: string, content: Uint8Array, mediaType?: string): Promise<void> {
    await turnForLargeWrite(content.byteLength);
    await this.db
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
    const row = await this.db
      .selectFrom('api_documents')
      .select('content')
      .where('name', '=', name)
      .where('removed_at', 'is', null)
      .executeTakeFirst();
    if (!row) throw new DocumentNotFoundError(`No stored document is named ${name}.`);
    const content = Buffer.from(row.content);
    return isGzip(content) ? gunzipped(content) : content;
  }

  /** Marks a document no record names any more as removed. */
  async remove(name: string): Promise<void> {
    await this.db
      .updateTable('api_documents')
      .set({ removed_at: this.now() })
      .where('name', '=', name)
      .where('removed_at', 'is', null)
      .execute();
  }

  /** Names of the documents not removed. */
  async names(): Promise<string[]> {
    const rows = await this.db
      .selectFrom('api_documents')
      .select('name')
      .where('removed_at', 'is', null)
      .orderBy('name')
      .execute();
    return rows.map((row) => row.name);
  }

  async purgeRemoved(before: number): Promise<void> {
    await this.db.deleteFrom('api_documents').where('removed_at', '<', before).execute();
  }
}

/** Takes the documents back to the moment `atMs` (a restore): newer ones go, ones removed since are back. */
export async function rollBackDocuments(db: Db, atMs: number): Promise<void> {
  await db.deleteFrom('api_documents').where('created_at', '>', atMs).execute();
  await db.updateTable('api_documents').set({ removed_at: null }).where('removed_at', '>', atMs).execute();
}

const gunzipped = promisify(gunzip);

/**
 * A gzip stream's first two bytes. No JSON or YAML text starts with them (0x1f is a control character neither
 * allows), so a document stored as sent is never taken for a compressed one.
 */
function isGzip(content: Uint8Array): boolean {
  return content.length >= 2 && content[0] === 0x1f && content[1] === 0x8b;
}
