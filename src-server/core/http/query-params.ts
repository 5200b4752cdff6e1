import { validationProblem } from './problem.js';

/** JSON Schema fragment describing a query parameter in the OpenAPI document. */
export type ParamSchema = Record<string, unknown>;

export interface QueryParamSpec<T> {
  /** Other accepted spellings besides case differences (documentation lists the canonical one). */
  description: string;
  schema: ParamSchema;
  parse: (raw: string) => { ok: true; value: T } | { ok: false; message: string };
  defaultValue?: T;
}

export type QuerySpec = Record<string, QueryParamSpec<unknown>>;
/** A spec with exactly the parameters of a contract's query parameter type (checked with `satisfies`). */
export type QuerySpecOf<Parameters> = { [Name in keyof Required<Parameters>]: QueryParamSpec<unknown> };
export type QueryValues<S extends QuerySpec> = {
  [K in keyof S]: S[K] extends QueryParamSpec<infer T> ? T | undefined : never;
};

export function intParam(options: {
  description: string;
  min?: number;
  max?: number;
  defaultValue?: number;
}): QueryParamSpec<number> {
  const { min, max } = options;
  const bounds =
    min !== undefined && max !== undefined
      ? `from ${min} to ${max}`
      : min !== undefined
        ? `of at least ${min}`
        : max !== undefined
          ? `of at most ${max}`
          : '';
  return {
    description: options.description,
    defaultValue: options.defaultValue,
    schema: {
      type: 'integer',
      format: 'int32',
      ...(min !== undefined ? { minimum: min } : {}),
      ...(max !== undefined ? { maximum: max } : {}),
      ...(options.defaultValue !== undefined ? { default: options.defaultValue } : {}),
    },
    parse(raw) {
      const trimmed = raw.trim();
      if (!/^[+-]?\d{1,10}$/.test(trimmed))
        return { ok: false, message: `The value '${clip(raw)}' is not a valid integer.` };
      const value = Number(trimmed);
      if (
        (min !== undefined && value < min) ||
        (max !== undefined && value > max) ||
        !Number.isSafeInteger(value)
      ) {
        return { ok: false, message: `The value must be an integer ${bounds}.` };
      }
      return { ok: true, value };
    },
  };
}

export function stringParam(options: {
  description: string;
  maxLength?: number;
  pattern?: RegExp;
}): QueryParamSpec<string> {
  const maxLength = options.maxLength ?? 512;
  return {
    description: options.description,
    schema: { type: 'string', maxLength },
    parse(raw) {
      if (raw.length > maxLength)
        return { ok: false, message: `The value must be at most ${maxLength} characters.` };
      if (options.pattern && !options.pattern.test(raw))
        return { ok: false, message: `The value '${clip(raw)}' has an invalid format.` };
      return { ok: true, value: raw };
    },
  };
}

export function enumParam<T extends string>(options: {
  description: string;
  values: readonly T[];
}): QueryParamSpec<T> {
  return {
    description: options.description,
    schema: { type: 'string', enum: options.values },
    parse(raw) {
      const found = options.values.find((v) => v.toLowerCase() === raw.toLowerCase());
      return found
        ? { ok: true, value: found }
        : { ok: false, message: `The value must be one of ${options.values.join(', ')}.` };
    },
  };
}

/**
 * ISO 8601 date-time. A value without an offset is UTC (the seed's parameters are "Utc" by name); a bare date
 * means midnight UTC. Returns epoch milliseconds.
 */
export function dateTimeParam(options: { description: string }): QueryParamSpec<number> {
  return {
    description: options.description,
    // No `example`: Swagger UI's "Try it out" prefills it, and a filter prefilled with one date matches nothing.
    schema: { type: 'string', format: 'date-time' },
    parse(raw) {
      const value = parseUtcDateTime(raw);
      return value === undefined
        ? { ok: false, message: `The value '${clip(raw)}' is not a valid ISO 8601 date-time.` }
        : { ok: true, value };
    },
  };
}

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?(Z|z|[+-]\d{2}:?\d{2})?$/;

/** `2026-03-01T10:00:00.000Z`, as every Gatehouse timestamp is written: parsed without the general regex. */
const CANONICAL = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!;
}

function utcMs(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
  ms: number,
) {
  // Date.UTC would roll 2026-02-30 over into March; such a date is invalid, not "close enough".
  if (
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > daysInMonth(year, month) ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  ) {
    return undefined;
  }
  // Date.UTC reads years 0-99 as 1900-1999: 0050-01-01 is year 50, not 1950.
  const date = new Date(Date.UTC(2000, month - 1, day, hour, minute, second, ms));
  date.setUTCFullYear(year);
  return date.getTime();
}

export function isCanonicalUtc(raw: string): boolean {
  return raw.length === 24 && CANONICAL.test(raw);
}

export function parseUtcDateTime(raw: string): number | undefined {
  if (isCanonicalUtc(raw)) {
    const n = (from: number, to: number) => Number(raw.slice(from, to));
    return utcMs(n(0, 4), n(5, 7), n(8, 10), n(11, 13), n(14, 16), n(17, 19), n(20, 23));
  }
  const match = DATE_TIME.exec(raw.trim());
  if (!match) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '', zone] = match;
  const ms = utcMs(
    Number(y),
    Number(mo),
    Number(d),
    Number(h),
    Number(mi),
    Number(s),
    Number((frac + '000').slice(0, 3)),
  );
  if (ms === undefined) return undefined;
  let offsetMinutes = 0;
  if (zone && zone.toUpperCase() !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2));
    const om = Number(digits.slice(2, 4));
    if (oh > 23 || om > 59) return undefined;
    offsetMinutes = sign * (oh * 60 + om);
  }
  const result = ms - offsetMinutes * 60_000;
  return Number.isFinite(result) ? result : undefined;
}

function clip(raw: string): string {
  return raw.length > 40 ? `${raw.slice(0, 40)}…` : raw;
}

/**
 * Reads the query string against a spec. Names match case-insensitively; unknown names are ignored (as ASP.NET
 * does); a name given twice with different values is refused rather than guessed.
 */
export function parseQuery<S extends QuerySpec>(spec: S, search: string): QueryValues<S> {
  const canonicalByLower = new Map(Object.keys(spec).map((name) => [name.toLowerCase(), name]));
  const raw = new Map<string, string>();
  const errors: Record<string, string[]> = {};
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(search);
  } catch {
    throw validationProblem({ query: ['The query string is not valid.'] });
  }
  for (const [name, value] of params) {
    const canonical = canonicalByLower.get(name.toLowerCase());
    if (!canonical) continue;
    const previous = raw.get(canonical);
    if (previous !== undefined && previous !== value) {
      errors[canonical] = [`The parameter '${canonical}' was given more than once with different values.`];
      continue;
    }
    raw.set(canonical, value);
  }
  const values: Record<string, unknown> = {};
  for (const [name, paramSpec] of Object.entries(spec)) {
    if (errors[name]) continue;
    const given = raw.get(name);
    if (given === undefined || given === '') {
      values[name] = paramSpec.defaultValue;
      continue;
    }
    const result = paramSpec.parse(given);
    if (result.ok) values[name] = result.value;
    else errors[name] = [result.message];
  }
  if (Object.keys(errors).length > 0) throw validationProblem(errors);
  return values as QueryValues<S>;
}
