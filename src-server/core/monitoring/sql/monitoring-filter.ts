import { sql } from 'kysely';
import type { Tx } from '../../storage/database.js';
import type { MonitoringFilter } from '../monitoring-store.js';

type Reader = Pick<Tx, 'selectFrom'>;

/** The filter's text as stored text reads (NUL is U+FFFD in the store: see `normalizeRecord`). */
export function storedTextFilter<F extends MonitoringFilter>(filter: F): F {
  const clean = (value: string | undefined) =>
    value !== undefined && value.includes('\u0000') ? value.replaceAll('\u0000', '\uFFFD') : value;
  return {
    ...filter,
    apiId: clean(filter.apiId),
    operation: clean(filter.operation),
    agentGroupId: clean(filter.agentGroupId),
    method: clean(filter.method),
    pathPrefix: clean(filter.pathPrefix),
    instance: clean(filter.instance),
  };
}

/**
 * How a filter is written for the engine. `seek`: a method leads the method index (`upper(method)`, then time), so
 * the engine reads only that method's entries of the index — right for counting and for a page of one method;
 * otherwise the engine keeps to the time index (see `sql-monitoring-store.ts`).
 */
export interface FilterForm {
  seek: boolean;
}

/** `monitoring_records` with the filter applied. */
export function filteredRecords(reader: Reader, filter: MonitoringFilter, form?: FilterForm) {
  const { status } = filter;
  const seek = form?.seek === true;
  return reader
    .selectFrom('monitoring_records')
    .$if(filter.startMs !== undefined, (q) => q.where('time_ms', '>=', filter.startMs!))
    .$if(filter.endMs !== undefined, (q) => q.where('time_ms', '<', filter.endMs!))
    .$if(filter.apiId !== undefined, (q) => q.where('api_id', '=', filter.apiId!))
    .$if(filter.operation !== undefined, (q) => q.where('operation', '=', filter.operation!))
    .$if(filter.agentGroupId !== undefined, (q) => q.where('agent_group_id', '=', filter.agentGroupId!))
    .$if(filter.outcome !== undefined, (q) => q.where('outcome', '=', filter.outcome!))
    .$if(filter.instance !== undefined, (q) => q.where('instance', '=', filter.instance!))
    .$if(filter.viaAllOperations === true, (q) => q.where('via_all_operations', '=', 1))
    .$if(filter.viaAllOperations === false, (q) => q.where('via_all_operations', 'is', null))
    .$if(status !== undefined && 'code' in status, (q) =>
      q.where('status', '=', (status as { code: number }).code),
    )
    .$if(status !== undefined && 'classOf' in status, (q) => {
      const low = (status as { classOf: number }).classOf * 100;
      return q.where('status', '>=', low).where('status', '<=', low + 99);
    })
    .$if(filter.method !== undefined, (q) =>
      // The index's expression only in the seeking form: `|| ''` keeps the engine off it otherwise.
      q.where(
        seek ? sql<string>`upper(method)` : sql<string>`upper(method) || ''`,
        '=',
        filter.method!.toUpperCase(),
      ),
    )
    .$if(filter.minDurationMs !== undefined, (q) => q.where('duration_ms', '>=', filter.minDurationMs!))
    .$if(filter.pathPrefix !== undefined, (q) =>
      // substr, not LIKE: the prefix is case-sensitive and may hold % or _. Both engines count code points.
      q.where(
        sql<string>`substr(path, 1, ${Array.from(filter.pathPrefix!).length})`,
        '=',
        filter.pathPrefix!,
      ),
    );
}

/** Which roll-ups can answer a filter: everything, one API or one agent group, optionally one status class. */
export interface RollupSelection {
  dimension: '' | 'api' | 'agentGroup';
  value: string;
  /** Index into STATUS_CLASSES. */
  statusClass?: number;
}

/**
 * Undefined when the filter needs the records themselves (operation, method, path, duration, outcome, instance,
 * All operations, a code).
 */
export function rollupSelection(filter: MonitoringFilter): RollupSelection | undefined {
  if (
    filter.operation !== undefined ||
    filter.method !== undefined ||
    filter.minDurationMs !== undefined ||
    filter.pathPrefix !== undefined ||
    filter.outcome !== undefined ||
    filter.instance !== undefined ||
    filter.viaAllOperations !== undefined ||
    (filter.status !== undefined && 'code' in filter.status) ||
    (filter.apiId !== undefined && filter.agentGroupId !== undefined)
  ) {
    return undefined;
  }
  const statusClass = filter.status && 'classOf' in filter.status ? filter.status.classOf - 1 : undefined;
  const base =
    filter.apiId !== undefined
      ? { dimension: 'api' as const, value: filter.apiId }
      : filter.agentGroupId !== undefined
        ? { dimension: 'agentGroup' as const, value: filter.agentGroupId }
        : { dimension: '' as const, value: '' };
  return statusClass === undefined ? base : { ...base, statusClass };
}
