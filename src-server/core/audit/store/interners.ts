/** Maps names to small integers, ignoring case; remembers the casing of the first occurrence. */
export class CaseInsensitiveInterner {
  private readonly idsByKey = new Map<string, number>();
  /** Spellings seen so far: names repeat, and a hit here skips `toLowerCase`. */
  private readonly idsBySpelling = new Map<string, number>();
  readonly displayNames: string[] = [];

  static from(displayNames: readonly string[]): CaseInsensitiveInterner {
    const interner = new CaseInsensitiveInterner();
    for (const name of displayNames) interner.intern(name);
    return interner;
  }

  intern(name: string): number {
    let id = this.idsBySpelling.get(name);
    if (id !== undefined) return id;
    const key = name.toLowerCase();
    id = this.idsByKey.get(key);
    if (id === undefined) {
      id = this.displayNames.length;
      this.displayNames.push(name);
      this.idsByKey.set(key, id);
    }
    this.idsBySpelling.set(name, id);
    return id;
  }

  find(name: string): number | undefined {
    return this.idsBySpelling.get(name) ?? this.idsByKey.get(name.toLowerCase());
  }

  get size(): number {
    return this.displayNames.length;
  }
}

/** Maps values to small integers by an exact key; keeps the first value seen for each key. */
export class KeyedInterner<T> {
  private readonly idsByKey = new Map<string, number>();
  readonly values: T[] = [];

  constructor(private readonly keyOf: (value: T) => string) {}

  static from<T>(keyOf: (value: T) => string, values: readonly T[]): KeyedInterner<T> {
    const interner = new KeyedInterner(keyOf);
    for (const value of values) interner.intern(value);
    return interner;
  }

  intern(value: T): number {
    const key = this.keyOf(value);
    let id = this.idsByKey.get(key);
    if (id === undefined) {
      id = this.values.length;
      this.values.push(value);
      this.idsByKey.set(key, id);
    }
    return id;
  }

  findByKey(key: string): number | undefined {
    return this.idsByKey.get(key);
  }

  get size(): number {
    return this.values.length;
  }
}

export function resourceKey(resource: { type: string; id: string }): string {
  return `${resource.type}\u0000${resource.id}`;
}
