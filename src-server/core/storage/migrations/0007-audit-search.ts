import { sql, type Kysely } from 'kysely';
import type { EngineKind } from '../engine-kind.js';

const BATCH = 2_000;

interface EntryRow {
  id: number | string;
  entry: string;
  category: string;
}

/** PostgreSQL text cannot hold NUL (as `textColumn` in audit/sql/audit-rows.ts). */
const text = (value: string) => (value.includes('\u0000') ? value.replaceAll('\u0000', '\uFFFD') : value);

/**
 * Finding entries: `audit_resources` names the resources of every entry, not only of configuration entries (for
 * the `resource` filter: "everything that touched API X"), filled in for the entries written before; an index on
 * the resource that covers the entry id, so a resource's entries are read from the index alone.
 */
export function auditSearch(_engine: EngineKind) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      let after = -1;
      for (;;) {
        const { rows } = await sql<EntryRow>`select id, entry, category from audit_entries
          where id > ${after} and category <> 'configuration' order by id limit ${BATCH}`.execute(db);
        if (rows.length === 0) break;
        const resources = new Map<string, { entry_id: number; resource_type: string; resource_id: string }>();
        for (const row of rows) {
          const id = Number(row.id);
          for (const resource of resourcesOf(row.entry)) {
            const value = {
              entry_id: id,
              resource_type: text(resource.type),
              resource_id: text(resource.id),
            };
            resources.set(`${id}\u0000${value.resource_type}\u0000${value.resource_id}`, value);
          }
        }
        const values = [...resources.values()];
        for (let start = 0; start < values.length; start += 500) {
          await db
            .insertInto('audit_resources' as never)
            .values(values.slice(start, start + 500))
            .execute();
        }
        after = Number(rows.at(-1)!.id);
      }
      await db.schema.dropIndex('audit_resources_by_resource').execute();
      await db.schema
        .createIndex('audit_resources_by_resource')
        .on('audit_resources')
        .columns(['resource_type', 'resource_id', 'entry_id'])
        .execute();
    },
  };
}

function resourcesOf(json: string): { type: string; id: string }[] {
  const entry = JSON.parse(json) as { resources?: unknown };
  if (!Array.isArray(entry.resources)) return [];
  return entry.resources.filter(
    (resource): resource is { type: string; id: string } =>
      typeof resource === 'object' &&
      resource !== null &&
      typeof (resource as { type?: unknown }).type === 'string' &&
      typeof (resource as { id?: unknown }).id === 'string',
  );
}
