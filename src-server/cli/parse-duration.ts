import { UsageError } from './usage-error.js';

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** `90`, `90s`, `30m`, `1h`, `2d` → seconds. */
export function parseDurationSeconds(text: string, option: string): number {
  const match = /^(\d{1,7})([smhd]?)$/i.exec(text.trim());
  if (!match) throw new UsageError(`${option} must be a duration such as 30m, 1h or 3600s.`);
  const seconds = Number(match[1]) * UNIT_SECONDS[(match[2] || 's').toLowerCase()]!;
  if (seconds < 1 || seconds > 30 * 86400)
    throw new UsageError(`${option} must be between 1 second and 30 days.`);
  return seconds;
}
