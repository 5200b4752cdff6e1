import type { Database } from '../../src-server/core/storage/database.js';

/** The current configuration document as stored (the newest revision's JSON text). */
export async function storedConfigText(database: Database): Promise<string> {
  const row = await database.db
    .selectFrom('config_revisions')
    .select('document')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
  return row.document;
}

/** Names of the API documents stored (not removed). */
export async function storedDocumentNames(database: Database): Promise<string[]> {
  const rows = await database.db
    .selectFrom('api_documents')
    .select('name')
    .where('removed_at', 'is', null)
    .orderBy('name')
    .execute();
  return rows.map((row) => row.name);
}
