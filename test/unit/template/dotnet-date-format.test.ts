import { describe, expect, it } from 'vitest';
import { checkDateTimeFormat, formatDateTime } from '../../../src-server/core/template/dotnet-date-format.js';
import type { DotnetDateTime } from '../../../src-server/core/template/dotnet-datetime.js';
import {
  addUnits,
  localNow,
  toUniversal,
  utcNow,
} from '../../../src-server/core/template/dotnet-datetime.js';

// Wednesday 2024-01-03 14:05:09.045 UTC, and a morning time for AM.
const afternoon: DotnetDateTime = utcNow(new Date('2024-01-03T14:05:09.045Z'));
const morning: DotnetDateTime = utcNow(new Date('0987-11-23T00:07:03.100Z'));

function format(value: DotnetDateTime, pattern: string): string {
  const result = formatDateTime(value, pattern);
  if (!result.ok) throw new Error(`${pattern}: ${result.message}`);
  return result.text;
}

describe('custom .NET date format specifiers', () => {
  it.each([
    ['yyyy', '2024'],
    ['yy', '24'],
    ['%y', '24'],
    ['yyy', '2024'],
    ['yyyyy', '02024'],
    ['MM', '01'],
    ['%M', '1'],
    ['MMM', 'Jan'],
    ['MMMM', 'January'],
    ['dd', '03'],
    ['%d', '3'],
    ['ddd', 'Wed'],
    ['dddd', 'Wednesday'],
    ['HH', '14'],
    ['%H', '14'],
    ['hh', '02'],
    ['%h', '2'],
    ['mm', '05'],
    ['%m', '5'],
    ['ss', '09'],
    ['%s', '9'],
    ['fff', '045'],
    ['ff', '04'],
    ['%f', '0'],
    ['fffffff', '0450000'],
    ['FFF', '045'],
    ['FF', '04'],
    ['%F', ''],
    ['tt', 'PM'],
    ['%t', 'P'],
    ['%K', 'Z'],
    ['zzz', '+00:00'],
    ['zz', '+00'],
    ['%z', '+0'],
    ['%g', 'A.D.'],
    ['HH:mm', '14:05'],
    ['yyyy/MM/dd', '2024/01/03'],
    ["yyyy-MM-dd'T'HH:mm:ss'Z'", '2024-01-03T14:05:09Z'],
    ['"day" d', 'day 3'],
    ["'it''s'", 'its'],
    ["'a\\'b'", "a'b"],
    ['\\y\\e\\a\\r yyyy', 'year 2024'],
    ['hh:mm tt', '02:05 PM'],
    ['ss.FFF', '09.045'],
    ['HHH', '14'],
    ['hhh', '02'],
    ['mmm', '05'],
    ['KK', 'ZZ'],
    ['x-yyyy!', 'x-2024!'],
  ])('%s → %j', (pattern, expected) => {
    expect(format(afternoon, pattern)).toBe(expected);
  });

  it('reads a lone letter as a standard format, so a lone custom specifier needs %', () => {
    expect(format(afternoon, 'd')).toBe('01/03/2024');
    expect(format(afternoon, '%d')).toBe('3');
  });

  it('pads small years and uses AM and a 12 for midnight', () => {
    expect(format(morning, 'yyyy yy y tt t hh h')).toBe('0987 87 87 AM A 12 12');
  });

  it("drops the '.' before an all-zero F fraction, as .NET does", () => {
    const whole = utcNow(new Date('2024-01-03T14:05:09.000Z'));
    expect(format(whole, 'ss.FFF')).toBe('09');
    expect(format(whole, 'ss.fff')).toBe('09.000');
  });
});

describe('standard .NET date formats', () => {
  it.each([
    ['o', '2024-01-03T14:05:09.0450000Z'],
    ['O', '2024-01-03T14:05:09.0450000Z'],
    ['s', '2024-01-03T14:05:09'],
    ['u', '2024-01-03 14:05:09Z'],
    ['r', 'Wed, 03 Jan 2024 14:05:09 GMT'],
    ['R', 'Wed, 03 Jan 2024 14:05:09 GMT'],
    ['d', '01/03/2024'],
    ['D', 'Wednesday, 03 January 2024'],
    ['f', 'Wednesday, 03 January 2024 14:05'],
    ['F', 'Wednesday, 03 January 2024 14:05:09'],
    ['g', '01/03/2024 14:05'],
    ['G', '01/03/2024 14:05:09'],
    ['m', 'January 03'],
    ['M', 'January 03'],
    ['t', '14:05'],
    ['T', '14:05:09'],
    ['U', 'Wednesday, 03 January 2024 14:05:09'],
    ['y', '2024 January'],
    ['Y', '2024 January'],
    ['', '01/03/2024 14:05:09'],
  ])('%j → %j', (pattern, expected) => {
    expect(format(afternoon, pattern)).toBe(expected);
  });

  it('writes the local offset for local times in "o" and K', () => {
    const instant = new Date('2024-07-01T12:00:00.000Z');
    const local = localNow(instant);
    const offset = -instant.getTimezoneOffset();
    const sign = offset < 0 ? '-' : '+';
    const text = `${sign}${String(Math.floor(Math.abs(offset) / 60)).padStart(2, '0')}:${String(Math.abs(offset) % 60).padStart(2, '0')}`;
    expect(format(local, 'o').endsWith(text)).toBe(true);
    expect(format(toUniversal(local), 'o')).toBe('2024-07-01T12:00:00.0000000Z');
  });
});

describe('invalid formats (a FormatException in .NET)', () => {
  it.each([
    ['H', /not a standard date format/],
    ['q', /not a standard date format/],
    ['ffffffff', /at most 7/],
    ["yyyy'open", /not closed/],
    ['"open', /not closed/],
    ['yyyy\\', /escapes nothing/],
    ['%', /not a standard/],
    ['yy%', /'%' must be followed/],
    ['%%', /'%' must be followed/],
  ])('%j is refused', (pattern, message) => {
    expect(checkDateTimeFormat(pattern)).toMatch(message);
  });

  it('accepts valid formats', () => {
    expect(checkDateTimeFormat('yyyy-MM-dd')).toBeUndefined();
  });
});

describe('DateTime arithmetic', () => {
  it('adds days, hours and minutes and stays within years 1 to 9999', () => {
    expect(format(addUnits(afternoon, 'days', -3) as DotnetDateTime, 'yyyy-MM-dd')).toBe('2023-12-31');
    expect(format(addUnits(afternoon, 'hours', 10) as DotnetDateTime, 'yyyy-MM-dd HH')).toBe('2024-01-04 00');
    expect(format(addUnits(afternoon, 'minutes', 55) as DotnetDateTime, 'HH:mm')).toBe('15:00');
    expect(addUnits(afternoon, 'days', 3_000_000)).toBeUndefined();
    expect(addUnits(afternoon, 'days', -800_000)).toBeUndefined();
  });
});
