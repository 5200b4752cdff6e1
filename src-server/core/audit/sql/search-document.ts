/**
 * SQLite's full-text document of an entry (`SEARCH_DOCUMENT_SQL`: its parameters' atoms as `json_tree` lists them,
 * joined by spaces), built from the parameters in JavaScript, so that an import's reader thread builds it and the
 * writer no longer parses every row's JSON again in SQL (a 200,000-entry replay: 630 → 420 ms of the writer's CPU).
 *
 * Built only where the two agree by construction: strings (well formed, no NUL: `json_tree` unescapes those its
 * own way), booleans (its atoms 1 and 0), safe integers (the same digits in both) and nulls (no atom). Any other
 * value, e.g. a fraction (SQLite prints reals with 15 significant digits, JavaScript with as many as it takes),
 * makes it `undefined`: the writer then has SQLite build that row's document as before.
 *
 * `parameters` is the value `JSON.stringify` wrote into the row; its object keys are walked in the order that text
 * holds them, `json_tree`'s order.
 *
 * @returns the document, `null` when the parameters hold no atom (SQLite's `group_concat` of none), or `undefined`
 *   when only SQLite can tell.
 */
export function searchDocumentOf(parameters: unknown): string | null | undefined {
  const atoms: string[] = [];
  return collectAtoms(parameters, atoms) ? (atoms.length === 0 ? null : atoms.join(' ')) : undefined;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether `value`'s atoms, in `json_tree`'s order, could be listed; they go into `atoms`. */
function collectAtoms(value: unknown, atoms: string[]): boolean {
  switch (typeof value) {
    case 'string':
      if (value.includes('\u0000') || LONE_SURROGATE.test(value)) return false;
      atoms.push(value);
      return true;
    case 'boolean':
      atoms.push(value ? '1' : '0');
      return true;
    case 'number':
      if (!Number.isSafeInteger(value)) return false;
      atoms.push(String(value));
      return true;
    case 'undefined':
      // Absent from the parameters' JSON (an object's key is left out; an array's element would be null).
      return true;
    case 'object':
      if (value === null) return true;
      if (Array.isArray(value)) return value.every((element) => collectAtoms(element, atoms));
      // Plain data only: anything with its own serialization (`toJSON`) is left to SQLite.
      if (Object.getPrototypeOf(value) !== Object.prototype) return false;
      for (const key in value)
        if (!collectAtoms((value as Record<string, unknown>)[key], atoms)) return false;
      return true;
    default:
      return false;
  }
}
