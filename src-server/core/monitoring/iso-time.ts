/** The last second formatted, `YYYY-MM-DDTHH:MM:SS.`: requests within one second share it. */
let cachedSecond = Number.NaN;
let cachedPrefix = '';
/** The last millisecond formatted, and its text. */
let cachedMs = Number.NaN;
let cachedText = '';

/** Years 0000–9999: the ones `toISOString` writes with four digits. */
const LAST_FOUR_DIGIT_MS = 253_402_300_800_000;

/**
 * `new Date(ms).toISOString()` for a whole number of milliseconds. Every gateway request's monitoring record
 * carries its time, and the engine's own formatting costs more than the rest of building the record; here only a
 * new second is formatted by it.
 */
export function isoTime(ms: number): string {
  // Under load many requests arrive within one millisecond: they share one string (less for the GC to copy while
  // records wait to be written, and `parseIsoTime` knows it at once).
  if (ms === cachedMs) return cachedText;
  if (!Number.isInteger(ms) || ms < 0 || ms >= LAST_FOUR_DIGIT_MS) return new Date(ms).toISOString();
  const millisecond = ms % 1000;
  const second = ms - millisecond;
  if (second !== cachedSecond) {
    cachedPrefix = new Date(second).toISOString().slice(0, 20);
    cachedSecond = second;
  }
  cachedText = `${cachedPrefix}${millisecond < 10 ? '00' : millisecond < 100 ? '0' : ''}${millisecond}Z`;
  cachedMs = ms;
  return cachedText;
}

/** The prefix (`YYYY-MM-DDTHH:MM:SS.`) and time of the last second parsed. */
let parsedPrefix = '';
let parsedSecond = 0;

/**
 * `Date.parse(text)`. A time in the form `isoTime` writes, within the second parsed last, is read from its last
 * digits: records arrive in time order, many to a second.
 */
export function parseIsoTime(text: string): number {
  if (text === cachedText) return cachedMs;
  if (
    parsedPrefix !== '' &&
    text.length === 24 &&
    text.startsWith(parsedPrefix) &&
    text.charCodeAt(23) === 0x5a
  ) {
    const millisecond = digitsAt(text, 20);
    if (millisecond !== -1) return parsedSecond + millisecond;
  }
  const ms = Date.parse(text);
  if (
    text.length === 24 &&
    Number.isInteger(ms) &&
    ms >= 0 &&
    ms < LAST_FOUR_DIGIT_MS &&
    isoTime(ms) === text
  ) {
    parsedPrefix = text.slice(0, 20);
    parsedSecond = ms - (ms % 1000);
  }
  return ms;
}

/** The three decimal digits at `start`, or -1. */
function digitsAt(text: string, start: number): number {
  let value = 0;
  for (let index = start; index < start + 3; index++) {
    const digit = text.charCodeAt(index) - 0x30;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}
