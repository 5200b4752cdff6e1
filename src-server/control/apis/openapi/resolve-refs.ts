import { internalRefToPointer, parsePointer, pointerFromSegments } from './json-pointer.js';
import { isJsonObject, ownValue, quoteValue } from './object-access.js';

/**
 * Resolves internal `$ref`s (`#/components/...`, `#/definitions/...`, `#/parameters/...`,
 * `#/paths/...`). External references (other files, URLs) are never fetched: they resolve to a
 * failure that says so. Chains of references are followed; cycles are reported, not followed.
 */

export type Resolution =
  | {
      ok: true;
      value: unknown;
      /** Pointer of the value finally reached (the input pointer when there was no `$ref`). */
      pointer: string;
      /** Pointer of the object holding the first `$ref`, when the value came through one. */
      refPointer?: string;
    }
  | { ok: false; pointer: string; message: string };

const MAX_CHAIN_LENGTH = 32;

export function isExternalRef(ref: string): boolean {
  return !ref.startsWith('#');
}

export function externalRefMessage(ref: string): string {
  return (
    `reference ${quoteValue(ref)} names another file, which was not read: import the description from its URL ` +
    '(or with gatehouse api import FILE) so that the files it names are read too, or bundle it into one file'
  );
}

type Lookup = { ok: true; value: unknown; pointer: string } | { ok: false; message: string };

export class RefResolver {
  // Big documents repeat the same few hundred references thousands of times.
  private readonly lookups = new Map<string, Lookup>();

  constructor(private readonly document: unknown) {}

  /** Follows `value` (found at `pointer`) through `$ref`s until a value without `$ref` is reached. */
  resolve(value: unknown, pointer: string): Resolution {
    let current = value;
    let currentPointer = pointer;
    const visited = [pointer];
    while (isJsonObject(current) && Object.hasOwn(current, '$ref')) {
      const ref = ownValue(current, '$ref');
      if (typeof ref !== 'string') {
        return {
          ok: false,
          pointer: `${currentPointer}/$ref`,
          message: `$ref must be a string, found ${quoteValue(ref)}`,
        };
      }
      const target = this.lookupRef(ref);
      if (!target.ok) return { ok: false, pointer: currentPointer, message: target.message };
      if (visited.includes(target.pointer)) {
        return {
          ok: false,
          pointer: currentPointer,
          message: `circular $ref: ${[...visited, target.pointer].map((step) => quoteValue(`#${step}`)).join(' → ')}`,
        };
      }
      if (visited.length > MAX_CHAIN_LENGTH) {
        return { ok: false, pointer, message: `$ref chain longer than ${MAX_CHAIN_LENGTH} references` };
      }
      visited.push(target.pointer);
      current = target.value;
      currentPointer = target.pointer;
    }
    return visited.length > 1
      ? { ok: true, value: current, pointer: currentPointer, refPointer: pointer }
      : { ok: true, value: current, pointer: currentPointer };
  }

  /** The value a reference names, without following further `$ref`s. */
  lookupRef(ref: string): Lookup {
    let lookup = this.lookups.get(ref);
    if (lookup === undefined) {
      lookup = this.lookupUncached(ref);
      this.lookups.set(ref, lookup);
    }
    return lookup;
  }

  private lookupUncached(ref: string): Lookup {
    if (isExternalRef(ref)) return { ok: false, message: externalRefMessage(ref) };
    const pointer = internalRefToPointer(ref);
    if (pointer === undefined) {
      return {
        ok: false,
        message: `$ref ${quoteValue(ref)} is not a JSON pointer fragment such as "#/components/schemas/Order"`,
      };
    }
    const found = this.lookupPointer(pointer);
    if (!found.found)
      return { ok: false, message: `$ref ${quoteValue(ref)} does not resolve: ${found.reason}` };
    return { ok: true, value: found.value, pointer };
  }

  lookupPointer(pointer: string): { found: true; value: unknown } | { found: false; reason: string } {
    const segments = parsePointer(pointer) ?? [];
    let current: unknown = this.document;
    for (const [index, segment] of segments.entries()) {
      if (Array.isArray(current) && /^(0|[1-9]\d*)$/.test(segment) && Number(segment) < current.length) {
        current = current[Number(segment)];
      } else if (isJsonObject(current) && Object.hasOwn(current, segment)) {
        current = current[segment];
      } else {
        const parent = pointerFromSegments(segments.slice(0, index));
        return { found: false, reason: `there is no ${quoteValue(segment)} in ${quoteValue(`#${parent}`)}` };
      }
    }
    return { found: true, value: current };
  }
}
