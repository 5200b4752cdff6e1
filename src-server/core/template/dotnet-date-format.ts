import type { DotnetDateTime } from './dotnet-datetime.js';
import { fieldsOf, toUniversal, utcOffsetMinutes } from './dotnet-datetime.js';

/**
 * `DateTime.ToString(format)` with .NET's invariant-culture rules: one-character standard formats
 * (d D f F g G m M o O r R s t T u U y Y) and custom formats (yyyy, MM, dd, HH, hh, mm, ss, f…, F…, tt, K,
 * z/zz/zzz, ddd/dddd, MMM/MMMM, g, `:` `/`, 'quoted' and "quoted" text, `\` escapes, `%` for one specifier).
 * Invalid formats fail the way .NET throws a FormatException.
 */

export type FormatResult = { ok: true; text: string } | { ok: false; message: string };

const STANDARD_FORMATS: ReadonlyMap<string, string> = new Map([
  ['d', 'MM/dd/yyyy'],
  ['D', 'dddd, dd MMMM yyyy'],
  ['f', 'dddd, dd MMMM yyyy HH:mm'],
  ['F', 'dddd, dd MMMM yyyy HH:mm:ss'],
  ['g', 'MM/dd/yyyy HH:mm'],
  ['G', 'MM/dd/yyyy HH:mm:ss'],
  ['m', 'MMMM dd'],
  ['M', 'MMMM dd'],
  ['o', "yyyy'-'MM'-'dd'T'HH':'mm':'ss'.'fffffffK"],
  ['O', "yyyy'-'MM'-'dd'T'HH':'mm':'ss'.'fffffffK"],
  ['r', "ddd, dd MMM yyyy HH':'mm':'ss 'GMT'"],
  ['R', "ddd, dd MMM yyyy HH':'mm':'ss 'GMT'"],
  ['s', "yyyy'-'MM'-'dd'T'HH':'mm':'ss"],
  ['t', 'HH:mm'],
  ['T', 'HH:mm:ss'],
  ['u', "yyyy'-'MM'-'dd HH':'mm':'ss'Z'"],
  ['U', 'dddd, dd MMMM yyyy HH:mm:ss'],
  ['y', 'yyyy MMMM'],
  ['Y', 'yyyy MMMM'],
]);

const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const MAX_FRACTION_DIGITS = 7;
const SAMPLE: DotnetDateTime = { wallMs: Date.UTC(2024, 1, 29, 13, 5, 9, 120), kind: 'utc' };

export function formatDateTime(value: DotnetDateTime, format: string): FormatResult {
  if (format.length === 0) return formatCustom(value, STANDARD_FORMATS.get('G') as string);
  if (format.length === 1) {
    const pattern = STANDARD_FORMATS.get(format);
    if (pattern === undefined) {
      return {
        ok: false,
        message: `'${format}' is not a standard date format (d D f F g G m M o O r R s t T u U y Y); write '%${format}' to use a custom specifier alone`,
      };
    }
    return formatCustom(format === 'U' ? toUniversal(value) : value, pattern);
  }
  return formatCustom(value, format);
}

/** An error message when `format` would fail, for checking literal formats at compile time. */
export function checkDateTimeFormat(format: string): string | undefined {
  const result = formatDateTime(SAMPLE, format);
  return result.ok ? undefined : result.message;
}

function formatCustom(value: DotnetDateTime, format: string): FormatResult {
  const fields = fieldsOf(value);
  let text = '';
  let i = 0;
  while (i < format.length) {
    const symbol = format[i] as string;
    let length = repeatCount(format, i);
    switch (symbol) {
      case 'g':
        text += 'A.D.';
        break;
      case 'h':
        text += pad(fields.hour % 12 || 12, Math.min(length, 2));
        break;
      case 'H':
        text += pad(fields.hour, Math.min(length, 2));
        break;
      case 'm':
        text += pad(fields.minute, Math.min(length, 2));
        break;
      case 's':
        text += pad(fields.second, Math.min(length, 2));
        break;
      case 'f':
      case 'F': {
        if (length > MAX_FRACTION_DIGITS) {
          return {
            ok: false,
            message: `at most ${MAX_FRACTION_DIGITS} '${symbol}' specifiers may follow each other`,
          };
        }
        const digits = fractionDigits(fields.millisecond, length);
        if (symbol === 'f') {
          text += digits;
        } else {
          const trimmed = digits.replace(/0+$/, '');
          // .NET drops a '.' right before an all-zero F fraction.
          if (trimmed.length > 0) text += trimmed;
          else if (text.endsWith('.')) text = text.slice(0, -1);
        }
        break;
      }
      case 't': {
        const designator = fields.hour < 12 ? 'AM' : 'PM';
        text += length === 1 ? designator.charAt(0) : designator;
        break;
      }
      case 'd':
        text +=
          length <= 2
            ? pad(fields.day, length)
            : length === 3
              ? (DAY_NAMES[fields.dayOfWeek] as string).slice(0, 3)
              : DAY_NAMES[fields.dayOfWeek]!;
        break;
      case 'M':
        text +=
          length <= 2
            ? pad(fields.month, length)
            : length === 3
              ? (MONTH_NAMES[fields.month - 1] as string).slice(0, 3)
              : MONTH_NAMES[fields.month - 1]!;
        break;
      case 'y':
        text += length <= 2 ? pad(fields.year % 100, length) : pad(fields.year, length);
        break;
      case 'z':
        text += formatOffset(utcOffsetMinutes(value), length);
        break;
      case 'K':
        length = 1;
        text += value.kind === 'utc' ? 'Z' : formatOffset(utcOffsetMinutes(value), 3);
        break;
      case ':':
      case '/':
        length = 1;
        text += symbol;
        break;
      case "'":
      case '"': {
        const quoted = readQuoted(format, i);
        if (!quoted.ok) return quoted;
        text += quoted.text;
        length = quoted.length;
        break;
      }
      case '%': {
        const next = format[i + 1];
        if (next === undefined || next === '%') {
          return { ok: false, message: "'%' must be followed by one format specifier" };
        }
        const single = formatCustom(value, next);
        if (!single.ok) return single;
        text += single.text;
        length = 2;
        break;
      }
      case '\\': {
        const next = format[i + 1];
        if (next === undefined)
          return { ok: false, message: "'\\' at the end of the format escapes nothing" };
        text += next;
        length = 2;
        break;
      }
      default:
        length = 1;
        text += symbol;
    }
    i += length;
  }
  return { ok: true, text };
}

function readQuoted(
  format: string,
  quoteAt: number,
): { ok: true; text: string; length: number } | { ok: false; message: string } {
  const quote = format[quoteAt];
  let text = '';
  let i = quoteAt + 1;
  while (i < format.length && format[i] !== quote) {
    if (format[i] === '\\') {
      i++;
      if (i >= format.length) break;
    }
    text += format[i]!;
    i++;
  }
  if (i >= format.length)
    return { ok: false, message: `the quoted text starting at ${quoteAt} in the format is not closed` };
  return { ok: true, text, length: i + 1 - quoteAt };
}

function fractionDigits(millisecond: number, count: number): string {
  const value = count <= 3 ? Math.floor(millisecond / 10 ** (3 - count)) : millisecond * 10 ** (count - 3);
  return pad(value, count);
}

function formatOffset(offsetMinutes: number, length: number): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const absolute = Math.abs(offsetMinutes);
  const hours = Math.floor(absolute / 60);
  if (length === 1) return `${sign}${hours}`;
  if (length === 2) return `${sign}${pad(hours, 2)}`;
  return `${sign}${pad(hours, 2)}:${pad(absolute % 60, 2)}`;
}

function repeatCount(format: string, from: number): number {
  let end = from + 1;
  while (format[end] === format[from]) end++;
  return end - from;
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}
