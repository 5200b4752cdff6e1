const EMPTY_SLOT = 0;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/**
 * Maps UTF-8 byte strings to dense ids (0, 1, 2 …). Values live once in one growing byte arena and the hash
 * table is a typed array, so a million distinct request paths cost their bytes plus ~20 bytes each, not a JS
 * string and a Map entry each. Interning straight from a record's bytes spares replay all string decoding.
 */
export class ByteInterner {
  private arena: Buffer;
  private arenaUsed = 0;
  private starts: Uint32Array;
  private lengths: Uint32Array;
  private hashes: Uint32Array;
  /** Open addressing, linear probing; each slot holds id + 1, or 0 when empty. */
  private slots: Int32Array;
  private scratch = Buffer.allocUnsafe(1024);
  private lastValue: string | undefined;
  private lastId = -1;
  size = 0;

  constructor(expectedValues = 64) {
    const capacity = Math.max(16, expectedValues);
    this.arena = Buffer.allocUnsafe(capacity * 16);
    this.starts = new Uint32Array(capacity);
    this.lengths = new Uint32Array(capacity);
    this.hashes = new Uint32Array(capacity);
    this.slots = new Int32Array(slotCountFor(capacity));
  }

  internBytes(source: Buffer, start: number, length: number): number {
    const hash = hashBytes(source, start, length);
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot]!;
      if (entry === EMPTY_SLOT) return this.add(source, start, length, hash, slot);
      const id = entry - 1;
      if (this.hashes[id] === hash && this.equals(id, source, start, length)) return id;
    }
  }

  intern(value: string): number {
    // Consecutive records mostly repeat a value (one agent group, one method…): that costs a comparison.
    if (value === this.lastValue) return this.lastId;
    const length = this.encode(value);
    const id = this.internBytes(this.scratch, 0, length);
    this.lastValue = value;
    this.lastId = id;
    return id;
  }

  /** The id of `value`, or -1 when it was never interned. */
  find(value: string): number {
    const length = this.encode(value);
    const hash = hashBytes(this.scratch, 0, length);
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot]!;
      if (entry === EMPTY_SLOT) return -1;
      const id = entry - 1;
      if (this.hashes[id] === hash && this.equals(id, this.scratch, 0, length)) return id;
    }
  }

  text(id: number): string {
    const start = this.starts[id]!;
    return this.arena.toString('utf8', start, start + this.lengths[id]!);
  }

  /** Marks (1) every value that starts with `prefix`, in one pass over the arena. */
  markPrefixed(prefix: Uint8Array): Uint8Array {
    const marks = new Uint8Array(this.size);
    const { arena, starts, lengths } = this;
    const length = prefix.length;
    const first = prefix[0];
    for (let id = 0; id < this.size; id++) {
      if (lengths[id]! < length) continue;
      const start = starts[id]!;
      if (length > 0 && arena[start] !== first) continue;
      let i = 1;
      while (i < length && arena[start + i] === prefix[i]) i++;
      if (i >= length) marks[id] = 1;
    }
    return marks;
  }

  /** Bytes held in memory (arena, per-value arrays and hash table). */
  get memoryBytes(): number {
    const perValueArrays = this.starts.byteLength + this.lengths.byteLength + this.hashes.byteLength;
    return this.arena.length + perValueArrays + this.slots.byteLength + this.scratch.length;
  }

  /** A new interner holding only the values `keep` selects; `mapping[oldId]` is the new id or -1. */
  compact(keep: Uint8Array): { interner: ByteInterner; mapping: Int32Array } {
    let kept = 0;
    for (let id = 0; id < this.size; id++) if (keep[id]) kept++;
    const interner = new ByteInterner(kept);
    const mapping = new Int32Array(this.size).fill(-1);
    for (let id = 0; id < this.size; id++) {
      if (keep[id]) mapping[id] = interner.internBytes(this.arena, this.starts[id]!, this.lengths[id]!);
    }
    return { interner, mapping };
  }

  private add(source: Buffer, start: number, length: number, hash: number, slot: number): number {
    const id = this.size;
    if (id === this.starts.length) this.growValues();
    if (this.arenaUsed + length > this.arena.length) this.growArena(length);
    const arena = this.arena;
    const base = this.arenaUsed;
    for (let i = 0; i < length; i++) arena[base + i] = source[start + i]!;
    this.starts[id] = this.arenaUsed;
    this.lengths[id] = length;
    this.hashes[id] = hash;
    this.arenaUsed += length;
    this.size = id + 1;
    this.slots[slot] = id + 1;
    if (this.size * 2 > this.slots.length) this.rehash();
    return id;
  }

  private equals(id: number, source: Uint8Array, start: number, length: number): boolean {
    if (this.lengths[id] !== length) return false;
    const offset = this.starts[id]!;
    const arena = this.arena;
    for (let i = 0; i < length; i++) if (arena[offset + i] !== source[start + i]) return false;
    return true;
  }

  private encode(value: string): number {
    if (value.length * 3 > this.scratch.length) this.scratch = Buffer.allocUnsafe(value.length * 3);
    return this.scratch.write(value, 0, 'utf8');
  }

  private growValues(): void {
    const capacity = this.starts.length * 2;
    this.starts = grown(this.starts, capacity);
    this.lengths = grown(this.lengths, capacity);
    this.hashes = grown(this.hashes, capacity);
  }

  private growArena(needed: number): void {
    const next = Buffer.allocUnsafe(Math.max(this.arena.length * 2, this.arenaUsed + needed));
    this.arena.copy(next, 0, 0, this.arenaUsed);
    this.arena = next;
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let id = 0; id < this.size; id++) {
      let slot = this.hashes[id]! & mask;
      while (slots[slot] !== EMPTY_SLOT) slot = (slot + 1) & mask;
      slots[slot] = id + 1;
    }
    this.slots = slots;
  }
}

function slotCountFor(values: number): number {
  let slots = 32;
  while (slots < values * 2) slots *= 2;
  return slots;
}

function grown(array: Uint32Array, capacity: number): Uint32Array {
  const next = new Uint32Array(capacity);
  next.set(array);
  return next;
}

function hashBytes(bytes: Uint8Array, start: number, length: number): number {
  let hash = FNV_OFFSET;
  for (let i = start; i < start + length; i++) hash = Math.imul(hash ^ bytes[i]!, FNV_PRIME);
  return hash >>> 0;
}
