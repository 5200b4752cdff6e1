import type { RowColumns } from './row-columns.js';

/**
 * Rows in ascending (timestamp, row) order; list order (newest first) is this read backwards. Rows are in
 * id order, so comparing rows breaks timestamp ties by id.
 */
export class SortedRowList {
  rows: Uint32Array;
  length = 0;

  constructor(
    private readonly columns: RowColumns,
    capacity = 8,
  ) {
    this.rows = new Uint32Array(capacity);
  }

  static fromSorted(columns: RowColumns, rows: Uint32Array, length: number): SortedRowList {
    const list = new SortedRowList(columns, 0);
    list.rows = rows;
    list.length = length;
    return list;
  }

  /** First position whose timestamp is >= `timeMs`. */
  lowerBoundTime(timeMs: number): number {
    const times = this.columns.times;
    let low = 0;
    let high = this.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (times[this.rows[middle]!]! < timeMs) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** First position whose (timestamp, entry id) is >= the given pair. */
  lowerBoundEntry(timeMs: number, id: number): number {
    const { times, ids } = this.columns;
    let low = 0;
    let high = this.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const row = this.rows[middle]!;
      const time = times[row]!;
      if (time < timeMs || (time === timeMs && ids[row]! < id)) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** Adds one row; the common case (newest entry) is an append. */
  insert(row: number): void {
    this.reserve(this.length + 1);
    let position = this.length;
    if (position > 0 && this.precedes(row, this.rows[position - 1]!)) position = this.upperBoundRow(row);
    this.rows.copyWithin(position + 1, position, this.length);
    this.rows[position] = row;
    this.length++;
  }

  /** Adds many rows: sorts them and merges from the back, touching only the part of the list they reach. */
  insertMany(rows: Uint32Array): void {
    if (rows.length === 0) return;
    const times = this.columns.times;
    rows.sort((a, b) => times[a]! - times[b]! || a - b);
    this.reserve(this.length + rows.length);
    let read = this.length - 1;
    let incoming = rows.length - 1;
    let write = this.length + rows.length - 1;
    while (incoming >= 0) {
      if (read >= 0 && this.precedes(rows[incoming]!, this.rows[read]!)) {
        this.rows[write--] = this.rows[read--]!;
      } else {
        this.rows[write--] = rows[incoming--]!;
      }
    }
    this.length += rows.length;
  }

  /** Keeps the rows `keep` accepts (order is unchanged). */
  retain(keep: (row: number) => boolean): void {
    let write = 0;
    for (let read = 0; read < this.length; read++) {
      const row = this.rows[read]!;
      if (keep(row)) this.rows[write++] = row;
    }
    this.length = write;
  }

  /** Renumbers rows after `RowColumns.purge`; every row in the list must survive it. */
  remap(mapping: Int32Array): void {
    for (let i = 0; i < this.length; i++) {
      const mapped = mapping[this.rows[i]!]!;
      if (mapped < 0) throw new Error('A listed row was purged');
      this.rows[i] = mapped;
    }
  }

  push(row: number): void {
    this.reserve(this.length + 1);
    this.rows[this.length++] = row;
  }

  view(): Uint32Array {
    return this.rows.subarray(0, this.length);
  }

  private precedes(a: number, b: number): boolean {
    const times = this.columns.times;
    const difference = times[a]! - times[b]!;
    return difference < 0 || (difference === 0 && a < b);
  }

  private upperBoundRow(row: number): number {
    let low = 0;
    let high = this.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.precedes(row, this.rows[middle]!)) high = middle;
      else low = middle + 1;
    }
    return low;
  }

  private reserve(needed: number): void {
    if (needed <= this.rows.length) return;
    const grown = new Uint32Array(Math.max(needed, this.rows.length * 2, 8));
    grown.set(this.rows.subarray(0, this.length));
    this.rows = grown;
  }
}
