/** `2026-11-22 04:25:13 UTC`: the console shows UTC, like the audit trail and the API. */
export function formatUtc(iso: string, withMilliseconds = false): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const text = date.toISOString().replace('T', ' ');
  return `${withMilliseconds ? text.slice(0, 23) : text.slice(0, 19)} UTC`;
}

// One formatter, made on first use: making one (what toLocaleString with options does on every call) costs far
// more than formatting, tables format a time per row, and the first one loads locale data. dateStyle/timeStyle
// cannot be combined with timeZoneName, so the parts are spelled out.
let localTime: Intl.DateTimeFormat | undefined;

/** The same instant in the browser's time zone, for tooltips. */
export function formatLocal(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  localTime ??= new Intl.DateTimeFormat(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    timeZoneName: 'short',
  });
  return localTime.format(date);
}
