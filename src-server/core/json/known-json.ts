import { randomUUID } from 'node:crypto';

/**
 * JSON made off the main thread for values the main thread would otherwise serialize again. The import worker
 * serializes an API's operations (4 MB of JSON for Microsoft Graph's 16,000) to UTF-8 bytes; the
 * configuration store's row of the API and the import's answer splice that in instead of running JSON.stringify
 * over them (which held the event loop, and with it the gateway, for 60 to 150 ms per import), and copy the bytes
 * rather than encode 4 MB of text to UTF-8 again (9 ms in one piece). Keyed by identity: values registered here
 * are frozen, and a changed value is a new object, serialized as usual.
 */
/** The JSON text, or its UTF-8 bytes. */
type KnownJson = string | Uint8Array;

const known = new WeakMap<object, KnownJson>();

/** Per process, so that no text a value could hold is taken for a placeholder. */
const PLACEHOLDER = `\u0000known-json:${randomUUID()}:`;

export function rememberJson(value: object, json: KnownJson): void {
  known.set(value, json);
}

declare const JSON_TEXT: unique symbol;
/** Stands for a value known only as its JSON (`jsonText`). */
export interface JsonText {
  readonly [JSON_TEXT]: true;
}

/**
 * A stand-in for the value `json` encodes, for an answer built from JSON that is at hand as text (an audit page's
 * stored entries): where an answer holds it, encodeWithKnown writes the text. Nothing else reads it: it is an
 * empty frozen object, and serialized by anything else it is `{}`.
 */
export function jsonText(json: KnownJson): JsonText {
  const standIn = Object.freeze({});
  known.set(standIn, json);
  return standIn as JsonText;
}

/** Whether `value` holds remembered JSON where encodeWithKnown looks. */
export function holdsKnownJson(value: unknown, depth = 2): boolean {
  if (depth <= 0 || !isPlainObject(value) || typeof value.toJSON === 'function') return false;
  return Object.values(value).some(
    (item) =>
      (typeof item === 'object' && item !== null && known.has(item)) || holdsKnownJson(item, depth - 1),
  );
}

/**
 * `JSON.stringify(value)` as UTF-8, with the remembered JSON of values found as property values of plain objects up
 * to `depth` levels down (where records and answers hold them): their bytes copied as they are, or their text
 * encoded. Arrays are not searched: a long list costs what it did.
 */
export function encodeWithKnown(value: unknown, depth = 2): Buffer {
  return Buffer.concat(encodePiecesWithKnown(value, depth));
}

/**
 * encodeWithKnown's bytes in pieces, in order, the remembered bytes among them as they are: for a writer that takes
 * pieces (a socket, a gzip stream), so that the main thread neither copies an import's megabytes of operations
 * again nor allocates (and first touches) a fresh array of the whole for them.
 */
export function encodePiecesWithKnown(value: unknown, depth = 2): Uint8Array[] {
  const spliced = withPlaceholders(value, depth);
  if (!spliced) return [Buffer.from(JSON.stringify(value))];
  const pieces: Uint8Array[] = [];
  let rest = spliced.json;
  spliced.parts.forEach((part, index) => {
    const placeholder = placeholderJson(index);
    const at = rest.indexOf(placeholder);
    pieces.push(Buffer.from(rest.slice(0, at)), typeof part === 'string' ? Buffer.from(part) : part);
    rest = rest.slice(at + placeholder.length);
  });
  pieces.push(Buffer.from(rest));
  return pieces;
}

function placeholderJson(index: number): string {
  return JSON.stringify(`${PLACEHOLDER}${index}`);
}

/** The JSON of `value` with a placeholder string for each remembered value; undefined when there is none. */
function withPlaceholders(value: unknown, depth: number): { json: string; parts: KnownJson[] } | undefined {
  const parts: KnownJson[] = [];
  const substituted = substitute(value, depth, parts);
  return parts.length === 0 ? undefined : { json: JSON.stringify(substituted), parts };
}

function substitute(value: unknown, depth: number, parts: KnownJson[]): unknown {
  if (depth <= 0 || !isPlainObject(value) || typeof value.toJSON === 'function') return value;
  let copy: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value)) {
    const remembered = typeof item === 'object' && item !== null ? known.get(item) : undefined;
    const replaced =
      remembered !== undefined
        ? `${PLACEHOLDER}${parts.push(remembered) - 1}`
        : substitute(item, depth - 1, parts);
    if (replaced !== item) (copy ??= { ...value })[key] = replaced;
  }
  return copy ?? value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}
