import type { MonitoringFilter } from '../monitoring-store.js';
import type { MonitoringIndex } from './monitoring-index.js';
import type { RowColumns } from './row-columns.js';

const ANY = -1;

/**
 * The non-time part of a filter, resolved against the interned values once so that checking a row is a few
 * typed-array comparisons: names become ids, a method or a path prefix becomes a mask over the distinct
 * values. A matcher is used synchronously right after `compile` (the index does not change under it).
 */
export class RowMatcher {
  private api = ANY;
  private operation = ANY;
  private agentGroup = ANY;
  private outcome = ANY;
  private checkStatus = false;
  private statusLow = 0;
  private statusHigh = 0;
  private checkDuration = false;
  private minDuration = 0;
  private methods: Uint8Array | undefined;
  private paths: Uint8Array | undefined;
  /** False when only the time range filters: every row of the range matches. */
  readonly active: boolean;

  private constructor(
    private readonly columns: RowColumns,
    filter: MonitoringFilter,
  ) {
    this.active =
      filter.apiId !== undefined ||
      filter.operation !== undefined ||
      filter.agentGroupId !== undefined ||
      filter.outcome !== undefined ||
      filter.status !== undefined ||
      filter.minDurationMs !== undefined ||
      filter.method !== undefined ||
      filter.pathPrefix !== undefined;
  }

  /** Undefined when no row can match (a value the store has never seen). */
  static compile(index: MonitoringIndex, filter: MonitoringFilter): RowMatcher | undefined {
    const matcher = new RowMatcher(index.columns, filter);
    if (filter.apiId !== undefined) {
      const id = index.apis.find(filter.apiId);
      if (id < 0) return undefined;
      matcher.api = id + 1;
    }
    if (filter.operation !== undefined) {
      const id = index.operations.find(filter.operation);
      if (id < 0) return undefined;
      matcher.operation = id + 1;
    }
    if (filter.agentGroupId !== undefined) {
      matcher.agentGroup = index.agentGroups.find(filter.agentGroupId);
      if (matcher.agentGroup < 0) return undefined;
    }
    if (filter.outcome !== undefined) {
      matcher.outcome = index.outcomes.find(filter.outcome);
      if (matcher.outcome < 0) return undefined;
    }
    if (filter.status !== undefined) {
      const { status } = filter;
      matcher.checkStatus = true;
      matcher.statusLow = 'code' in status ? status.code : status.classOf * 100;
      matcher.statusHigh = 'code' in status ? status.code : status.classOf * 100 + 99;
    }
    if (filter.minDurationMs !== undefined) {
      matcher.checkDuration = true;
      matcher.minDuration = filter.minDurationMs;
    }
    if (filter.method !== undefined) {
      matcher.methods = methodMask(index, filter.method);
      if (!matcher.methods.includes(1)) return undefined;
    }
    if (filter.pathPrefix !== undefined) {
      matcher.paths = index.paths.markPrefixed(Buffer.from(filter.pathPrefix, 'utf8'));
      if (!matcher.paths.includes(1)) return undefined;
    }
    return matcher;
  }

  matches(row: number): boolean {
    const c = this.columns;
    if (this.api !== ANY && c.apis[row] !== this.api) return false;
    if (this.operation !== ANY && c.operations[row] !== this.operation) return false;
    if (this.agentGroup !== ANY && c.agentGroups[row] !== this.agentGroup) return false;
    if (this.outcome !== ANY && c.outcomes[row] !== this.outcome) return false;
    if (this.checkStatus) {
      const status = c.statuses[row]!;
      if (status < this.statusLow || status > this.statusHigh) return false;
    }
    if (this.checkDuration && c.durations[row]! < this.minDuration) return false;
    if (this.methods !== undefined && this.methods[c.methods[row]!] !== 1) return false;
    if (this.paths !== undefined && this.paths[c.paths[row]!] !== 1) return false;
    return true;
  }
}

/** Methods match case-insensitively: every spelling the store has seen that upper-cases to the same. */
function methodMask(index: MonitoringIndex, method: string): Uint8Array {
  const wanted = method.toUpperCase();
  const mask = new Uint8Array(index.methods.size);
  for (let id = 0; id < mask.length; id++) {
    if (index.methods.text(id).toUpperCase() === wanted) mask[id] = 1;
  }
  return mask;
}
