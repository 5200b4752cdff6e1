import { randomUUID } from 'node:crypto';

/**
 * JSON text made off the main thread for values the main thread would otherwise serialize again. The import
 * worker serializes an API's operations (4 MB of JSON for Microsoft Graph's 16,000); the configuration store's
 * row of the API and the import's answer splice that text in instead of running JSON.stringify over them, which
 * held the event loop, and with it the gateway, for 60 to 150 ms per import. Keyed by identity: values
 * registered here are frozen, and a changed value is a new object, serialized as usual.
 */
const known = new WeakMap<object, string>();

/** Per process, so that no text a value could hold is taken for a placeholder. */
const PLACEHOLDER = `\u0000known-json:${randomUUID()}:`;

export function rememberJson(value: object, json: string): void {
  known.set(value, json);
}

/**
 * `JSON.stringify(value)`, with the remembered text of values found as property values of plain objects up to
 * `depth` levels down (where records and answers hold them). Arrays are not searched: a long list costs what it
 * did.
 */
export function stringifyWithKnown(value: unknown, depth = 2): string {
  const parts: string[] = [];
  const substituted = substitute(value, depth, parts);
  if (parts.length === 0) return JSON.stringify(value);
  let json = JSON.stringify(substituted);
  parts.forEach((part, index) => {
    const placeholder = JSON.stringify(`${PLACEHOLDER}${index}`);
    const at = json.indexOf(placeholder);
    json = json.slice(0, at) + part + json.slice(at + placeholder.length);
  });
  return json;
}

function substitute(value: unknown, depth: number, parts: string[]): unknown {
  if (depth <= 0 || !isPlainObject(value) || typeof value.toJSON === 'function') return value;
  let copy: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value)) {
    const text = typeof item === 'object' && item !== null ? known.get(item) : undefined;
    const replaced =
      text !== undefined ? `${PLACEHOLDER}${parts.push(text) - 1}` : substitute(item, depth - 1, parts);
    if (replaced !== item) (copy ??= { ...value })[key] = replaced;
  }
  return copy ?? value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}
