import type { ContentHash } from '../content-hash.js';
import type { RowColumns } from './row-columns.js';

const EMPTY = -1;

/**
 * Open-addressing hash table from content hash to rows, in typed arrays (a JS Map of a million entries
 * costs far more memory and time). Several rows may share a hash; lookups check every one of them.
 */
export class ContentHashTable {
  private slots: Int32Array;
  private used = 0;

  constructor(
    private readonly columns: RowColumns,
    expected: number,
  ) {
    this.slots = new Int32Array(tableSizeFor(expected)).fill(EMPTY);
  }

  static build(columns: RowColumns): ContentHashTable {
    const table = new ContentHashTable(columns, columns.count);
    for (let row = 0; row < columns.count; row++) if (columns.live[row]) table.add(row);
    return table;
  }

  add(row: number): void {
    if ((this.used + 1) * 2 > this.slots.length) this.rehash(this.slots.length * 2);
    this.place(row, this.slots);
    this.used++;
  }

  /**
   * A live row with this hash and the same time, action, user and category, or -1. (A plain parameter list
   * rather than a predicate: this runs once per imported entry.)
   */
  findLive(hash: ContentHash, timeMs: number, action: number, user: number, category: number): number {
    const { hashHi, hashLo, live, times, actions, users, categories } = this.columns;
    const mask = this.slots.length - 1;
    for (let slot = hash.lo & mask; ; slot = (slot + 1) & mask) {
      const row = this.slots[slot]!;
      if (row === EMPTY) return -1;
      if (
        hashLo[row] === hash.lo &&
        hashHi[row] === hash.hi &&
        live[row] &&
        times[row] === timeMs &&
        actions[row] === action &&
        users[row] === user &&
        categories[row] === category
      ) {
        return row;
      }
    }
  }

  private place(row: number, slots: Int32Array): void {
    const mask = slots.length - 1;
    let slot = this.columns.hashLo[row]! & mask;
    while (slots[slot] !== EMPTY) slot = (slot + 1) & mask;
    slots[slot] = row;
  }

  private rehash(size: number): void {
    const slots = new Int32Array(size).fill(EMPTY);
    for (const row of this.slots) if (row !== EMPTY) this.place(row, slots);
    this.slots = slots;
  }
}

function tableSizeFor(expected: number): number {
  let size = 1024;
  while (size < expected * 2 + 2) size *= 2;
  return size;
}
