import { sql, type ExpressionOrFactory, type SqlBool } from 'kysely';
import type { Tx } from '../../storage/database.js';
import type { GatehouseSchema } from '../../storage/schema.js';
import type { AuditFilter } from '../audit-entry.js';
import { nameKey, textColumn } from './audit-rows.js';
import { ALL_TENANTS, OWN_TENANT } from '../audit-tenant.js';
import { searchWords } from '../search-terms.js';
import { searchCondition, type SearchContext } from './audit-search.js';

/** A filter as the SQL store reads it: a search needs to know the engine it runs on. */
export type SqlAuditFilter = AuditFilter &
  SearchContext & {
    /**
     * SQLite, an action and a user: read through the action index, the user tested on each row
     * (`withPairIndexChoice`), rather than through the user index the planner takes.
     */
    actionIndexFirst?: boolean;
  };

type Reader = Pick<Tx, 'selectFrom'>;

/** The tenant a filter reads, or undefined for every tenant. */
export function tenantOf(filter: Pick<AuditFilter, 'tenant'>): string | undefined {
  if (filter.tenant === ALL_TENANTS) return undefined;
  return filter.tenant ?? OWN_TENANT;
}

/**
 * What `filteredEntries` tests, as the SQL compares it (names by their lower-cased keys): the values of a templated
 * statement (`runTemplated`) when the filter has no search.
 */
export interface EntryConditions {
  tenant?: string;
  actionKey?: string;
  userKey?: string;
  /** SQLite: the user tested on each row, the action index read (`SqlAuditFilter.actionIndexFirst`). */
  userKeyUnindexed?: boolean;
  instance?: string;
  resource?: { type: string; id: string };
  startMs?: number;
  endMs?: number;
}

export function entryConditions(filter: SqlAuditFilter): EntryConditions {
  return {
    tenant: tenantOf(filter),
    actionKey: filter.actionName === undefined ? undefined : nameKey(filter.actionName),
    userKey: filter.userName === undefined ? undefined : nameKey(filter.userName),
    userKeyUnindexed: filter.actionIndexFirst === true,
    instance: filter.instance === undefined ? undefined : textColumn(filter.instance),
    resource:
      filter.resource === undefined
        ? undefined
        : { type: textColumn(filter.resource.type), id: textColumn(filter.resource.id) },
    startMs: filter.startMs,
    endMs: filter.endMs,
  };
}

/** `audit_entries` with the filter applied. */
export function filteredEntries(reader: Reader, filter: SqlAuditFilter) {
  const tenant = tenantOf(filter);
  const words = filter.search === undefined ? [] : searchWords(filter.search);
  if (filter.search !== undefined && filter.engine === undefined)
    throw new Error('A search needs the engine it runs on (SqlAuditFilter.engine).');
  const search =
    filter.search === undefined
      ? undefined
      : // No word (the API refuses such a search): nothing matches.
        words.length === 0
        ? sql.lit(false)
        : searchCondition(reader, words, filter, { tenant, startMs: filter.startMs, endMs: filter.endMs });
  return entriesWhere(reader, entryConditions(filter), search);
}

type EntriesCondition = ExpressionOrFactory<GatehouseSchema, 'audit_entries', SqlBool>;

/** `audit_entries` where the conditions hold (and `search`, a full-text condition, between the others and time). */
export function entriesWhere(reader: Reader, conditions: EntryConditions, search?: EntriesCondition) {
  const { tenant, actionKey, userKey, instance, resource, startMs, endMs } = conditions;
  return reader
    .selectFrom('audit_entries')
    .$if(tenant !== undefined, (q) => q.where('tenant', '=', tenant!))
    .$if(actionKey !== undefined, (q) => q.where('action_key', '=', actionKey!))
    .$if(userKey !== undefined, (q) =>
      // SQLite's unary plus keeps the column out of index choice: the action index reads the entries.
      q.where(conditions.userKeyUnindexed ? sql<string>`+user_key` : sql.ref('user_key'), '=', userKey!),
    )
    .$if(instance !== undefined, (q) => q.where('instance', '=', instance!))
    .$if(resource !== undefined, (q) =>
      q.where('id', 'in', (eb) =>
        eb
          .selectFrom('audit_resources')
          .select('entry_id')
          .where('resource_type', '=', resource!.type)
          .where('resource_id', '=', resource!.id),
      ),
    )
    .$if(search !== undefined, (q) => q.where(search!))
    .$if(startMs !== undefined, (q) => q.where('time_ms', '>=', startMs!))
    .$if(endMs !== undefined, (q) => q.where('time_ms', '<', endMs!));
}
