import type { AuditCategory } from '../audit-entry.js';
import { findSortedId, type RecordLocation } from '../../storage/index.js';

export const CATEGORY_CODES: Readonly<Record<AuditCategory, number>> = {
  general: 0,
  configuration: 1,
  agent: 2,
};
export const CATEGORY_GENERAL = 0;
export const CATEGORY_CONFIGURATION = 1;
export const CATEGORY_AGENT = 2;
/** `agentGroups` value of an entry without agent group; otherwise the interned group id + 1. */
export const NO_AGENT_GROUP = 0;

/** What the index keeps of one entry record, apart from its location in the log. */
export interface RowFields {
  id: number;
  timeMs: number;
  action: number;
  user: number;
  category: number;
  agentGroup: number;
  hashHi: number;
  hashLo: number;
  /** Interned resources; kept for configuration entries only (retention and history removal need them). */
  resources: readonly number[];
}

type NumericColumn = Uint8Array | Uint32Array | Float64Array;

/** Column names in a fixed order: the snapshot stores them this way. */
export const PER_ROW_COLUMNS = [
  'ids',
  'times',
  'actions',
  'users',
  'categories',
  'agentGroups',
  'segments',
  'offsets',
  'sizes',
  'hashHi',
  'hashLo',
  'live',
  'tombstoneSegments',
] as const;
export type PerRowColumn = (typeof PER_ROW_COLUMNS)[number];

/**
 * One row per entry record still physically in the log, in id order (= log order), as a struct of typed
 * arrays. Rows removed by retention stay, marked not `live`, until compaction drops their records; then
 * `purge` renumbers the rows.
 */
export class RowColumns {
  count = 0;
  ids: Uint32Array;
  times: Float64Array;
  actions: Uint32Array;
  users: Uint32Array;
  categories: Uint8Array;
  agentGroups: Uint32Array;
  segments: Uint32Array;
  offsets: Uint32Array;
  sizes: Uint32Array;
  hashHi: Uint32Array;
  hashLo: Uint32Array;
  live: Uint8Array;
  /** Segment of the tombstone that removed a dead row (0 for live rows). */
  tombstoneSegments: Uint32Array;
  /** CSR: the resources of row r are `resourceRefs[resourceStarts[r] .. resourceStarts[r + 1])`. */
  resourceStarts: Uint32Array;
  resourceRefs: Uint32Array;
  resourceRefCount = 0;

  constructor(capacity = 1024) {
    this.ids = new Uint32Array(capacity);
    this.times = new Float64Array(capacity);
    this.actions = new Uint32Array(capacity);
    this.users = new Uint32Array(capacity);
    this.categories = new Uint8Array(capacity);
    this.agentGroups = new Uint32Array(capacity);
    this.segments = new Uint32Array(capacity);
    this.offsets = new Uint32Array(capacity);
    this.sizes = new Uint32Array(capacity);
    this.hashHi = new Uint32Array(capacity);
    this.hashLo = new Uint32Array(capacity);
    this.live = new Uint8Array(capacity);
    this.tombstoneSegments = new Uint32Array(capacity);
    this.resourceStarts = new Uint32Array(capacity + 1);
    this.resourceRefs = new Uint32Array(Math.max(64, capacity >> 2));
  }

  get capacity(): number {
    return this.ids.length;
  }

  add(fields: RowFields, location: RecordLocation): number {
    const row = this.count;
    if (row > 0 && fields.id <= this.ids[row - 1]!) {
      throw new Error(`Entry id ${fields.id} arrived after id ${this.ids[row - 1]}; ids must increase`);
    }
    if (row === this.capacity) this.resize(Math.max(1024, this.capacity * 2));
    this.ids[row] = fields.id;
    this.times[row] = fields.timeMs;
    this.actions[row] = fields.action;
    this.users[row] = fields.user;
    this.categories[row] = fields.category;
    this.agentGroups[row] = fields.agentGroup;
    this.segments[row] = location.segment;
    this.offsets[row] = location.offset;
    this.sizes[row] = location.size;
    this.hashHi[row] = fields.hashHi;
    this.hashLo[row] = fields.hashLo;
    this.live[row] = 1;
    this.tombstoneSegments[row] = 0;
    this.appendResources(fields.resources);
    this.resourceStarts[row + 1] = this.resourceRefCount;
    this.count = row + 1;
    return row;
  }

  /** Row holding entry `id`, or -1 (binary search: rows are in id order). */
  findRow(id: number): number {
    return findSortedId(this.ids, this.count, id);
  }

  resourcesOf(row: number): Uint32Array {
    return this.resourceRefs.subarray(this.resourceStarts[row], this.resourceStarts[row + 1]);
  }

  /** Keeps the rows `keep` accepts, in order. Returns old row → new row (-1 for dropped rows). */
  purge(keep: (row: number) => boolean): Int32Array {
    const mapping = new Int32Array(this.count);
    let next = 0;
    let nextRef = 0;
    for (let row = 0; row < this.count; row++) {
      if (!keep(row)) {
        mapping[row] = -1;
        continue;
      }
      mapping[row] = next;
      if (next !== row) for (const name of PER_ROW_COLUMNS) this[name][next] = this[name][row]!;
      const start = this.resourceStarts[row]!;
      const end = this.resourceStarts[row + 1]!;
      this.resourceStarts[next] = nextRef;
      this.resourceRefs.copyWithin(nextRef, start, end);
      nextRef += end - start;
      next++;
    }
    this.resourceStarts[next] = nextRef;
    this.count = next;
    this.resourceRefCount = nextRef;
    return mapping;
  }

  column(name: PerRowColumn): NumericColumn {
    return this[name];
  }

  /** Replaces all rows (snapshot load). Arrays may be longer than `count`: the extra room is capacity. */
  load(
    count: number,
    columns: Record<PerRowColumn, NumericColumn>,
    starts: Uint32Array,
    refs: Uint32Array,
  ): void {
    for (const name of PER_ROW_COLUMNS) {
      (this as unknown as Record<PerRowColumn, NumericColumn>)[name] = columns[name];
    }
    this.count = count;
    this.resourceStarts = starts;
    this.resourceRefs = refs;
    this.resourceRefCount = starts[count]!;
  }

  private appendResources(resources: readonly number[]): void {
    if (resources.length === 0) return;
    if (this.resourceRefCount + resources.length > this.resourceRefs.length) {
      const grown = new Uint32Array(
        Math.max(this.resourceRefs.length * 2, this.resourceRefCount + resources.length),
      );
      grown.set(this.resourceRefs.subarray(0, this.resourceRefCount));
      this.resourceRefs = grown;
    }
    for (const resource of resources) this.resourceRefs[this.resourceRefCount++] = resource;
  }

  private resize(capacity: number): void {
    for (const name of PER_ROW_COLUMNS) {
      const old = this[name];
      const grown = new (old.constructor as new (length: number) => NumericColumn)(capacity);
      grown.set(old.subarray(0, this.count));
      (this as unknown as Record<PerRowColumn, NumericColumn>)[name] = grown;
    }
    const starts = new Uint32Array(capacity + 1);
    starts.set(this.resourceStarts.subarray(0, this.count + 1));
    this.resourceStarts = starts;
  }
}
