import type { Kysely } from 'kysely';
import type { EngineKind } from '../engine-kind.js';

/**
 * A large configuration record (an imported API with thousands of operations: 4 MB of JSON for Microsoft Graph's)
 * is stored gzip-compressed in `data_deflated`, with `data` empty. On SQLite every write runs on the server's main
 * thread, and that row cost it, in one piece each: 10 ms to encode and insert, 5 ms for the commit to write it to
 * the WAL, and as much again when the version is closed (`valid_to` set: SQLite rewrites the whole row). Compressed
 * off the main thread, the row is a tenth of that. Rows written before keep their text.
 */
export function deflatedConfigRows(engine: EngineKind) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('config_records')
        .addColumn('data_deflated', engine === 'sqlite' ? 'blob' : 'bytea')
        .execute();
    },
  };
}
