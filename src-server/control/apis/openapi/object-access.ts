/** Safe reads from parsed JSON/YAML values: own properties only, never the prototype chain. */

export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function ownValue(object: JsonObject, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

export function hasOwn(object: JsonObject, key: string): boolean {
  return Object.hasOwn(object, key);
}

export function isExtensionKey(key: string): boolean {
  return key.startsWith('x-');
}

/** `null`, `array`, `string`, `number`, `boolean` or `object`, for messages such as "found array". */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** A short, printable rendering of a value for messages. */
export function quoteValue(value: unknown, maxLength = 60): string {
  let text: string;
  if (typeof value === 'string') text = JSON.stringify(value);
  else if (value === null || typeof value !== 'object') text = String(value);
  else text = describeType(value);
  return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text;
}
