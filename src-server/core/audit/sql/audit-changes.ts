import type { Database } from '../../storage/database.js';
import type { AuditEntry, AuditResource } from '../audit-entry.js';
import { ALL_TENANTS, OWN_TENANT } from '../audit-tenant.js';
import { entryOfRow } from './audit-rows.js';
import { seekPage } from './audit-seek.js';

/** One entry of a tenant's trail (any tenant's with `*`), or undefined. */
export async function entryById(
  database: Database,
  id: number,
  tenant: string = OWN_TENANT,
): Promise<AuditEntry | undefined> {
  const row = await database.db
    .selectFrom('audit_entries')
    .select(['id', 'entry', 'tenant'])
    .where('id', '=', id)
    .$if(tenant !== ALL_TENANTS, (q) => q.where('tenant', '=', tenant))
    .executeTakeFirst();
  return row ? entryOfRow(row.id, row.entry, row.tenant) : undefined;
}

/** The entry before `entry` in list order, in its tenant's trail, that names `resource`. */
export async function previousOfResource(
  database: Database,
  entry: AuditEntry,
  resource: Pick<AuditResource, 'type' | 'id'>,
): Promise<AuditEntry | undefined> {
  const page = await seekPage(database, { tenant: entry.tenant ?? OWN_TENANT, resource }, 1, {
    timeMs: Date.parse(entry.timestamp),
    id: entry.id,
  });
  return page.items[0];
}
