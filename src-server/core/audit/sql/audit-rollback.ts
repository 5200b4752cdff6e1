import type { Database } from '../../storage/database.js';
import type { AuditEntryTable, AuditResourceTable } from '../../storage/schema.js';
import { inChunks, removedAfter } from '../../storage/in-chunks.js';
import { CountDeltas } from './audit-count-deltas.js';
import { entryOfRow, resourcesToKeep } from './audit-rows.js';
import { rollBackChains } from '../chain/chain-rollback.js';
import { insertEntryRows } from './audit-search-index.js';

const CHUNK = 2_000;

/**
 * Takes the trail back to the moment `atMs` (a restore): entries written after it go, entries removed after it
 * (by retention or a history removal) come back with their resources, and removals after it are forgotten. The
 * counts follow in each chunk's transaction. Returns how many entries went and came back.
 */
export async function rollBackAudit(
  database: Database,
  atMs: number,
): Promise<{ dropped: number; returned: number }> {
  const dropped = await inChunks(database, CHUNK, async (trx) => {
    const rows = await trx
      .selectFrom('audit_entries')
      .select(['id', 'tenant', 'time_ms', 'action_key', 'user_key'])
      .where('recorded_at', '>', atMs)
      .limit(CHUNK)
      .execute();
    if (rows.length === 0) return 0;
    const ids = rows.map((row) => row.id);
    await trx.deleteFrom('audit_resources').where('entry_id', 'in', ids).execute();
    await trx.deleteFrom('audit_entries').where('id', 'in', ids).execute();
    const deltas = new CountDeltas();
    for (const row of rows) deltas.add(row.tenant, row.action_key, row.user_key, row.time_ms, -1);
    await deltas.apply(database, trx);
    return rows.length;
  });
  const returned = await inChunks(database, CHUNK, async (trx) => {
    const rows: AuditEntryTable[] = await removedAfter(trx, 'audit_entries_removed', atMs, CHUNK);
    if (rows.length === 0) return 0;
    const resources: AuditResourceTable[] = [];
    const deltas = new CountDeltas();
    for (const row of rows) {
      const entry = entryOfRow(row.id, row.entry);
      deltas.add(row.tenant, entry.actionName, entry.userName, row.time_ms, 1);
      for (const resource of resourcesToKeep(entry)) resources.push({ entry_id: row.id, ...resource });
    }
    await insertEntryRows(database, trx, rows);
    await database.bulkInsert(trx, 'audit_resources', resources);
    await deltas.apply(database, trx);
    const ids = rows.map((row) => row.id);
    await trx.deleteFrom('audit_entries_removed').where('id', 'in', ids).execute();
    return rows.length;
  });
  await database.db.deleteFrom('audit_entries_removed').where('removed_at', '>', atMs).execute();
  await rollBackChains(database, atMs);
  return { dropped, returned };
}
