import type { Database } from '../../src-server/core/storage/database.js';
import { recordJson } from '../../src-server/core/config-store/config-rows.js';

/**
 * The current configuration as stored: the JSON text of every current record row (a large one decompressed), put together into one
 * document (collections in their order), so tests can read it as the configuration and search it for secrets.
 */
export async function storedConfigText(database: Database): Promise<string> {
  const rows = await database.db
    .selectFrom('config_records')
    .select(['kind', 'data', 'data_deflated'])
    .where('valid_to', 'is', null)
    .orderBy('ordinal')
    .orderBy('key')
    .execute();
  const collections = new Map<string, string[]>();
  const singles: string[] = [];
  for (const row of rows) {
    const json = await recordJson(row);
    if (row.kind === 'tenant' || row.kind === 'schemaVersion') singles.push(`"${row.kind}":${json}`);
    else collections.set(row.kind, [...(collections.get(row.kind) ?? []), json]);
  }
  const members = [...collections].map(([kind, texts]) => `"${kind}":[${texts.join(',')}]`);
  return `{${[...singles, ...members].join(',')}}`;
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
