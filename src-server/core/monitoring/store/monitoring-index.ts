import type { RecordLocation } from '../../storage/index.js';
import type { NewMonitoringRecord } from '../monitoring-record.js';
import { ByteInterner } from './byte-interner.js';
import { durationBin } from '../duration-bins.js';
import type { IndexFieldReader } from './record-codec.js';
import { NONE, RowColumns } from './row-columns.js';
import { TimeOrder } from './time-order.js';

/** The in-memory state of the store: rows as typed columns, interned strings, and the time order. */
export class MonitoringIndex {
  readonly columns: RowColumns;
  readonly order: TimeOrder;
  readonly outcomes = new ByteInterner();
  readonly agentGroups = new ByteInterner();
  readonly methods = new ByteInterner();
  readonly apis = new ByteInterner();
  readonly operations = new ByteInterner();
  /** Replaced by a compacted copy when retention removes rows (paths can be many and unique). */
  paths: ByteInterner;
  /** Next id to hand out; ids of appends still being written are below it. */
  nextId = 1;

  /** `expectedRows` sizes the arrays up front (replay knows roughly how many records the log holds). */
  constructor(expectedRows = 1024) {
    this.columns = new RowColumns(expectedRows);
    this.order = new TimeOrder(() => this.columns.times, expectedRows);
    // Paths repeat: a quarter of the rows is a generous first guess (the interner grows as needed).
    this.paths = new ByteInterner(Math.ceil(expectedRows / 4));
  }

  allocateId(): number {
    return this.nextId++;
  }

  /** Adds the row of a record just committed to the log; the caller inserts it into `order`. */
  addRecord(
    id: number,
    timeMs: number,
    record: NewMonitoringRecord,
    location: RecordLocation,
    inner: number,
  ): number {
    return this.columns.add(
      {
        id,
        timeMs,
        durationMs: record.durationMs,
        durationBin: durationBin(record.durationMs),
        status: record.status,
        outcome: this.outcomes.intern(record.outcome),
        agentGroup: this.agentGroups.intern(record.agentGroupId),
        method: this.methods.intern(record.method),
        api: record.apiId === undefined ? NONE : this.apis.intern(record.apiId) + 1,
        operation: record.operation === undefined ? NONE : this.operations.intern(record.operation) + 1,
        path: this.paths.intern(record.path),
      },
      location,
      inner,
    );
  }

  /** Adds the row of a record read back from the log (replay); strings are interned from the block's bytes. */
  addDecoded(fields: IndexFieldReader, block: Buffer, location: RecordLocation, inner: number): number {
    const row = this.columns.add(
      {
        id: fields.id,
        timeMs: fields.timeMs,
        durationMs: fields.durationMs,
        durationBin: durationBin(fields.durationMs),
        status: fields.status,
        outcome: this.outcomes.internBytes(block, fields.outcomeStart, fields.outcomeLength),
        agentGroup: this.agentGroups.internBytes(block, fields.agentGroupStart, fields.agentGroupLength),
        method: this.methods.internBytes(block, fields.methodStart, fields.methodLength),
        api:
          fields.apiLength < 0 ? NONE : this.apis.internBytes(block, fields.apiStart, fields.apiLength) + 1,
        operation:
          fields.operationLength < 0
            ? NONE
            : this.operations.internBytes(block, fields.operationStart, fields.operationLength) + 1,
        path: this.paths.internBytes(block, fields.pathStart, fields.pathLength),
      },
      location,
      inner,
    );
    if (fields.id >= this.nextId) this.nextId = fields.id + 1;
    return row;
  }

  /** The id of the newest row, or 0. */
  get highestId(): number {
    return this.columns.count === 0 ? 0 : this.columns.ids[this.columns.count - 1]!;
  }

  /** Drops every row whose request time is before `cutoffMs`; returns how many went. */
  removeOlderThan(cutoffMs: number): number {
    const { columns } = this;
    const keep = new Uint8Array(columns.count);
    let removed = 0;
    for (let row = 0; row < columns.count; row++) {
      if (columns.times[row]! >= cutoffMs) keep[row] = 1;
      else removed++;
    }
    if (removed === 0) return 0;
    const mapping = columns.purge(keep);
    this.order.remap(mapping);
    this.compactPaths();
    return removed;
  }

  /** How many rows point into each segment. */
  rowsPerSegment(): Map<number, number> {
    const counts = new Map<number, number>();
    const { segments, count } = this.columns;
    for (let row = 0; row < count; row++) {
      const segment = segments[row]!;
      counts.set(segment, (counts.get(segment) ?? 0) + 1);
    }
    return counts;
  }

  get memoryBytes(): number {
    return (
      this.columns.memoryBytes +
      this.order.memoryBytes +
      this.paths.memoryBytes +
      this.outcomes.memoryBytes +
      this.agentGroups.memoryBytes +
      this.methods.memoryBytes +
      this.apis.memoryBytes +
      this.operations.memoryBytes
    );
  }

  private compactPaths(): void {
    const { paths, count } = this.columns;
    const used = new Uint8Array(this.paths.size);
    for (let row = 0; row < count; row++) used[paths[row]!] = 1;
    const { interner, mapping } = this.paths.compact(used);
    for (let row = 0; row < count; row++) paths[row] = mapping[paths[row]!]!;
    this.paths = interner;
  }
}
