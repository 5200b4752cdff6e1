import { findSortedId, type RecordLocation } from '../../storage/index.js';

/** `apis` / `operations` value of a record without API / operation; otherwise the interned id + 1. */
export const NONE = 0;

/** What the index keeps of one record, besides its location in the log. Strings are interned ids. */
export interface RowValues {
  id: number;
  timeMs: number;
  durationMs: number;
  durationBin: number;
  status: number;
  outcome: number;
  agentGroup: number;
  method: number;
  api: number;
  operation: number;
  path: number;
}

type Column = Float64Array | Uint32Array | Uint16Array;

const COLUMN_TYPES = {
  ids: Float64Array,
  times: Float64Array,
  durations: Float64Array,
  durationBins: Uint16Array,
  statuses: Uint16Array,
  outcomes: Uint32Array,
  agentGroups: Uint32Array,
  methods: Uint32Array,
  apis: Uint32Array,
  operations: Uint32Array,
  paths: Uint32Array,
  segments: Uint32Array,
  offsets: Uint32Array,
  sizes: Uint32Array,
  inners: Uint32Array,
} as const;
type ColumnName = keyof typeof COLUMN_TYPES;
const COLUMN_NAMES = Object.keys(COLUMN_TYPES) as ColumnName[];

/**
 * One row per indexed record, in id order (= log order), as a struct of typed arrays: ~70 bytes a record.
 * Column values are plain numbers so a query is a tight loop over arrays.
 */
export class RowColumns {
  count = 0;
  ids = new Float64Array(0);
  times = new Float64Array(0);
  durations = new Float64Array(0);
  durationBins = new Uint16Array(0);
  statuses = new Uint16Array(0);
  outcomes = new Uint32Array(0);
  agentGroups = new Uint32Array(0);
  methods = new Uint32Array(0);
  apis = new Uint32Array(0);
  operations = new Uint32Array(0);
  paths = new Uint32Array(0);
  segments = new Uint32Array(0);
  offsets = new Uint32Array(0);
  sizes = new Uint32Array(0);
  /** Where the record starts inside its block (the log record at segment/offset/size). */
  inners = new Uint32Array(0);

  constructor(capacity = 1024) {
    this.resize(capacity);
  }

  add(values: RowValues, location: RecordLocation, inner: number): number {
    const row = this.count;
    if (row > 0 && values.id <= this.ids[row - 1]!) {
      throw new Error(`Record id ${values.id} arrived after id ${this.ids[row - 1]}; ids must increase`);
    }
    if (row === this.ids.length) this.resize(Math.max(1024, Math.ceil(row * 1.5)));
    this.ids[row] = values.id;
    this.times[row] = values.timeMs;
    this.durations[row] = values.durationMs;
    this.durationBins[row] = values.durationBin;
    this.statuses[row] = values.status;
    this.outcomes[row] = values.outcome;
    this.agentGroups[row] = values.agentGroup;
    this.methods[row] = values.method;
    this.apis[row] = values.api;
    this.operations[row] = values.operation;
    this.paths[row] = values.path;
    this.segments[row] = location.segment;
    this.offsets[row] = location.offset;
    this.sizes[row] = location.size;
    this.inners[row] = inner;
    this.count = row + 1;
    return row;
  }

  /** Row holding record `id`, or -1 (binary search: rows are in id order). */
  findRow(id: number): number {
    return findSortedId(this.ids, this.count, id);
  }

  location(row: number): RecordLocation {
    return { segment: this.segments[row]!, offset: this.offsets[row]!, size: this.sizes[row]! };
  }

  /** Keeps the rows `keep` marks, in order. Returns old row → new row (-1 for dropped rows). */
  purge(keep: Uint8Array): Int32Array {
    const mapping = new Int32Array(this.count).fill(-1);
    let next = 0;
    for (let row = 0; row < this.count; row++) {
      if (!keep[row]) continue;
      mapping[row] = next;
      if (next !== row) for (const name of COLUMN_NAMES) this[name][next] = this[name][row]!;
      next++;
    }
    this.count = next;
    // Give memory back when most rows went (retention after a burst).
    if (this.ids.length > 4096 && next < this.ids.length / 4) this.resize(Math.max(1024, next * 2));
    return mapping;
  }

  get memoryBytes(): number {
    let bytes = 0;
    for (const name of COLUMN_NAMES) bytes += this[name].byteLength;
    return bytes;
  }

  private resize(capacity: number): void {
    for (const name of COLUMN_NAMES) {
      const old: Column = this[name];
      const next = new COLUMN_TYPES[name](capacity);
      next.set(old.subarray(0, Math.min(this.count, capacity)));
      (this as unknown as Record<ColumnName, Column>)[name] = next;
    }
  }
}
