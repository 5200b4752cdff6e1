import dayjs, { type Dayjs } from 'dayjs';
import type { UtcRangeDraft } from '../../../format/utc-range.js';

/** A range that ends now, by how far back it starts. */
export interface QuickRange {
  id: string;
  label: string;
  minutes: number;
}

export const QUICK_RANGES: readonly QuickRange[] = [
  { id: '15m', label: 'Last 15 minutes', minutes: 15 },
  { id: '1h', label: 'Last hour', minutes: 60 },
  { id: '24h', label: 'Last 24 hours', minutes: 24 * 60 },
  { id: '7d', label: 'Last 7 days', minutes: 7 * 24 * 60 },
  { id: '30d', label: 'Last 30 days', minutes: 30 * 24 * 60 },
];

export const CUSTOM_RANGE = 'custom';

/**
 * The range of a quick choice, as the From/To fields hold it: a start `minutes` before now (to the second) and an
 * open end, so entries that arrive later still show. The URL keeps the start itself, so a shared link shows the
 * same entries.
 */
export function quickRangeDraft(range: QuickRange, now: Dayjs = dayjs.utc()): UtcRangeDraft {
  return { from: now.utc().startOf('second').subtract(range.minutes, 'minute'), to: null };
}

/**
 * Which quick range a draft is, if it was chosen a moment ago (an open end and a start within a minute of where
 * the choice would put it now); otherwise the range is custom.
 */
export function quickRangeOf(draft: UtcRangeDraft, now: Dayjs = dayjs.utc()): string {
  if (!draft.from?.isValid() || draft.to) return CUSTOM_RANGE;
  const minutesBack = now.diff(draft.from, 'second') / 60;
  const match = QUICK_RANGES.find((range) => Math.abs(range.minutes - minutesBack) < 1);
  return match?.id ?? CUSTOM_RANGE;
}
