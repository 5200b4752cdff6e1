/** A fixed-capacity FIFO: adding to a full ring pushes the oldest item out (and hands it back). */
export class RecordRing<T> {
  private readonly items: (T | undefined)[];
  private head = 0;
  size = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError('capacity must be a positive integer');
    this.items = new Array<T | undefined>(capacity);
  }

  /** O(1). Returns the item pushed out when the ring was full. */
  push(item: T): T | undefined {
    if (this.size < this.capacity) {
      this.items[(this.head + this.size) % this.capacity] = item;
      this.size++;
      return undefined;
    }
    const evicted = this.items[this.head];
    this.items[this.head] = item;
    this.head = (this.head + 1) % this.capacity;
    return evicted;
  }

  /** Removes and returns up to `max` of the oldest items, oldest first. */
  take(max: number): T[] {
    const count = Math.min(max, this.size);
    const taken = new Array<T>(count);
    for (let i = 0; i < count; i++) {
      const slot = (this.head + i) % this.capacity;
      taken[i] = this.items[slot]!;
      this.items[slot] = undefined;
    }
    this.head = (this.head + count) % this.capacity;
    this.size -= count;
    return taken;
  }
}
