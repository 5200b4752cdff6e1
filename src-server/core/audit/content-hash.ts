import type { NewAuditEntry } from './audit-entry.js';

/** 64 bits of an entry's content digest, as two unsigned 32-bit halves (typed-array friendly). */
export interface ContentHash {
  hi: number;
  lo: number;
}

// Type tags keep different values from hashing alike (`"1"` vs `1`, `["ab","c"]` vs `["a","bc"]`).
const TAG_STRING = 1;
const TAG_NUMBER = 2;
const TAG_TRUE = 3;
const TAG_FALSE = 4;
const TAG_NULL = 5;
const TAG_ARRAY = 6;
const TAG_OBJECT = 7;
const TAG_END = 8;

/**
 * Hashes a value the way hashing its canonical JSON (object keys sorted at every level) would identify
 * it, but without building that text: two 32-bit multiply-xorshift lanes (cyrb53's construction, kept
 * at 64 bits). Not cryptographic; a match is confirmed against the indexed fields.
 */
class CanonicalHasher {
  private h1 = 0xdeadbeef;
  private h2 = 0x41c6ce57;

  mix(code: number): void {
    this.h1 = Math.imul(this.h1 ^ code, 2654435761);
    this.h2 = Math.imul(this.h2 ^ code, 1597334677);
  }

  text(value: string): void {
    this.mix(TAG_STRING);
    this.mix(value.length);
    for (let i = 0; i < value.length; i++) this.mix(value.charCodeAt(i));
  }

  value(value: unknown): void {
    switch (typeof value) {
      case 'string':
        this.text(value);
        return;
      case 'number':
        this.mix(TAG_NUMBER);
        if (Number.isInteger(value) && value >= -0x80000000 && value <= 0x7fffffff) this.mix(value | 0);
        else this.text(Number.isFinite(value) ? String(value) : 'null');
        return;
      case 'boolean':
        this.mix(value ? TAG_TRUE : TAG_FALSE);
        return;
      case 'object':
        break;
      default:
        // undefined, functions and symbols: JSON drops them from objects and writes null in arrays.
        this.mix(TAG_NULL);
        return;
    }
    if (value === null) {
      this.mix(TAG_NULL);
    } else if (Array.isArray(value)) {
      this.mix(TAG_ARRAY);
      for (const item of value) this.value(item);
      this.mix(TAG_END);
    } else if (typeof (value as { toJSON?: unknown }).toJSON === 'function') {
      this.value(JSON.parse(JSON.stringify(value)) as unknown);
    } else {
      this.mix(TAG_OBJECT);
      const record = value as Record<string, unknown>;
      for (const key of Object.keys(record).sort()) {
        const item = record[key];
        if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
        this.text(key);
        this.value(item);
      }
      this.mix(TAG_END);
    }
  }

  digest(): ContentHash {
    let h1 = this.h1;
    let h2 = this.h2;
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
    h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
    h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return { hi: h2 >>> 0, lo: h1 >>> 0 };
  }
}

/**
 * The identity used to skip duplicates on import: action, user, time, parameters, resources, agent group
 * and category, with object keys in any order. The status code and the id are not part of it.
 */
export function contentHash(entry: NewAuditEntry, timeMs: number): ContentHash {
  const hasher = new CanonicalHasher();
  hasher.text(entry.actionName);
  hasher.text(entry.userName);
  hasher.text(String(timeMs));
  hasher.text(entry.category);
  hasher.value(entry.parameters);
  hasher.value(entry.resources);
  hasher.value(entry.agentGroup ?? null);
  return hasher.digest();
}
