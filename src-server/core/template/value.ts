import type { ValueType } from './bound.js';
import { formatDateTime } from './dotnet-date-format.js';
import type { DotnetDateTime } from './dotnet-datetime.js';
import { formatGuid } from './dotnet-guid.js';

/**
 * Runtime values of the evaluator. Each carries where its text came from (`taint`) and whether a
 * secret contributed to it (`secret`).
 *
 * Taint levels: configuration text is inserted as it is; request data is percent-encoded for its place;
 * the output of `Uri.EscapeDataString` over request data is already made of unreserved characters and
 * escapes, so it is inserted without a second encoding (the `.`/`..` segment check still applies).
 */
export const CONFIGURATION = 0;
export const ESCAPED_REQUEST_DATA = 1;
export const REQUEST_DATA = 2;
export type Taint = typeof CONFIGURATION | typeof ESCAPED_REQUEST_DATA | typeof REQUEST_DATA;

export interface GuidValue {
  /** 32 lower-case hexadecimal digits. */
  readonly hex: string;
}

export type Data = string | number | boolean | null | DotnetDateTime | GuidValue | Uint8Array;

export interface Value {
  readonly data: Data;
  readonly taint: Taint;
  readonly secret: boolean;
}

/** C#'s `ToString()` of a value of the given static type (null renders as empty text). */
export function textOf(data: Data, type: ValueType): string {
  if (data === null) return '';
  switch (type) {
    case 'string':
      return data as string;
    case 'int':
      return (data as number).toString();
    case 'bool':
      return data ? 'True' : 'False';
    case 'datetime': {
      const formatted = formatDateTime(data as DotnetDateTime, '');
      return formatted.ok ? formatted.text : '';
    }
    case 'guid': {
      const formatted = formatGuid((data as GuidValue).hex, 'D');
      return formatted.ok ? formatted.text : '';
    }
    case 'bytes':
    case 'null':
      return '';
  }
}

export function maxTaint(a: Taint, b: Taint): Taint {
  return a > b ? a : b;
}
