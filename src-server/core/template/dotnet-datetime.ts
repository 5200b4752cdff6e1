/**
 * A .NET-like DateTime: a wall-clock time in milliseconds (read with the UTC getters of `Date`) and its
 * kind. Like .NET, adding hours to a local time moves the wall clock, not the instant. Precision is the
 * millisecond (JavaScript's), so .NET's 4th to 7th fraction digits are always zero.
 */
export interface DotnetDateTime {
  readonly wallMs: number;
  readonly kind: 'utc' | 'local';
}

export interface DateTimeFields {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  /** 0 = Sunday */
  dayOfWeek: number;
}

const MIN_WALL_MS = wallMsOf(1, 0, 1, 0, 0, 0, 0);
const MAX_WALL_MS = wallMsOf(9999, 11, 31, 23, 59, 59, 999);

const MS_PER_UNIT = { days: 86_400_000, hours: 3_600_000, minutes: 60_000 } as const;

export function utcNow(instant: Date): DotnetDateTime {
  return { wallMs: instant.getTime(), kind: 'utc' };
}

export function localNow(instant: Date): DotnetDateTime {
  return { wallMs: instant.getTime() - instant.getTimezoneOffset() * 60_000, kind: 'local' };
}

/** The shifted time, or undefined outside .NET's range (years 1–9999), where .NET throws. */
export function addUnits(
  value: DotnetDateTime,
  unit: keyof typeof MS_PER_UNIT,
  amount: number,
): DotnetDateTime | undefined {
  const wallMs = value.wallMs + amount * MS_PER_UNIT[unit];
  if (!(wallMs >= MIN_WALL_MS && wallMs <= MAX_WALL_MS)) return undefined;
  return { wallMs, kind: value.kind };
}

export function fieldsOf(value: DotnetDateTime): DateTimeFields {
  const date = new Date(value.wallMs);
  return {
    year: date.getUTCFullYear(),
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
    hour: date.getUTCHours(),
    minute: date.getUTCMinutes(),
    second: date.getUTCSeconds(),
    millisecond: date.getUTCMilliseconds(),
    dayOfWeek: date.getUTCDay(),
  };
}

/** Offset from UTC in minutes: 0 for UTC values, the server time zone's offset at that wall time for local ones. */
export function utcOffsetMinutes(value: DotnetDateTime): number {
  if (value.kind === 'utc') return 0;
  const firstGuess = -new Date(value.wallMs).getTimezoneOffset();
  return -new Date(value.wallMs - firstGuess * 60_000).getTimezoneOffset();
}

/** The same instant as a UTC value (.NET `ToUniversalTime()`). */
export function toUniversal(value: DotnetDateTime): DotnetDateTime {
  if (value.kind === 'utc') return value;
  return { wallMs: value.wallMs - utcOffsetMinutes(value) * 60_000, kind: 'utc' };
}

function wallMsOf(
  year: number,
  monthIndex: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
  ms: number,
): number {
  const date = new Date(0);
  date.setUTCFullYear(year, monthIndex, day);
  date.setUTCHours(hour, minute, second, ms);
  return date.getTime();
}
