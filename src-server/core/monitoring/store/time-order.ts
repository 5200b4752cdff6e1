/**
 * Row numbers in ascending (request time, row) order; the list's newest-first order is this read backwards.
 * Rows are in id order, so comparing rows breaks time ties by id.
 *
 * Records reach the store when their request ends, so a slow request lands after quicker ones that arrived
 * later: batches are merged in from the back, which touches only the tail they reach.
 */
export class TimeOrder {
  rows: Uint32Array;
  length = 0;

  constructor(
    private readonly times: () => Float64Array,
    capacity = 1024,
  ) {
    this.rows = new Uint32Array(capacity);
  }

  /** First position whose time is >= `timeMs`. */
  lowerBound(timeMs: number): number {
    const times = this.times();
    const rows = this.rows;
    let low = 0;
    let high = this.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (times[rows[middle]!]! < timeMs) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** Adds rows newer (higher) than every row already present. */
  insertBatch(batch: Uint32Array): void {
    if (batch.length === 0) return;
    const times = this.times();
    if (!isSorted(batch, times)) batch.sort((a, b) => times[a]! - times[b]! || a - b);
    this.reserve(this.length + batch.length);
    const rows = this.rows;
    let read = this.length - 1;
    let incoming = batch.length - 1;
    let write = this.length + batch.length - 1;
    while (incoming >= 0) {
      const candidate = batch[incoming]!;
      // Existing rows are lower than incoming ones, so a time tie keeps the existing row first.
      if (read >= 0 && times[rows[read]!]! > times[candidate]!) rows[write--] = rows[read--]!;
      else rows[write--] = batch[incoming--]!;
    }
    this.length += batch.length;
  }

  /** Applies `RowColumns.purge`'s mapping: drops purged rows, renumbers the rest (order is unchanged). */
  remap(mapping: Int32Array): void {
    const rows = this.rows;
    let write = 0;
    for (let read = 0; read < this.length; read++) {
      const mapped = mapping[rows[read]!]!;
      if (mapped >= 0) rows[write++] = mapped;
    }
    this.length = write;
    if (this.rows.length > 4096 && write < this.rows.length / 4) {
      this.rows = this.rows.slice(0, Math.max(1024, write * 2));
    }
  }

  get memoryBytes(): number {
    return this.rows.byteLength;
  }

  private reserve(needed: number): void {
    if (needed <= this.rows.length) return;
    const grown = new Uint32Array(Math.max(needed, Math.ceil(this.rows.length * 1.5)));
    grown.set(this.rows.subarray(0, this.length));
    this.rows = grown;
  }
}

/** Batches are usually in order already (replay, steady traffic): checking is cheaper than sorting. */
function isSorted(rows: Uint32Array, times: Float64Array): boolean {
  for (let i = 1; i < rows.length; i++) {
    const difference = times[rows[i]!]! - times[rows[i - 1]!]!;
    if (difference < 0 || (difference === 0 && rows[i]! < rows[i - 1]!)) return false;
  }
  return true;
}
