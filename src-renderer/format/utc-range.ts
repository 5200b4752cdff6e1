import dayjs, { type Dayjs } from 'dayjs';

/** A time range as a filter form holds it while it is typed. */
export interface UtcRangeDraft {
  from: Dayjs | null;
  to: Dayjs | null;
}

/** A time range by the API's parameter names: ISO 8601 in UTC with `Z`. */
export interface UtcRangeBounds {
  startDateTimeUtc?: string;
  endDateTimeUtc?: string;
}

export type UtcRangeProblems = Partial<Record<keyof UtcRangeDraft, string>>;

export function rangeDraftOf(bounds: UtcRangeBounds): UtcRangeDraft {
  return {
    from: bounds.startDateTimeUtc ? dayjs.utc(bounds.startDateTimeUtc) : null,
    to: bounds.endDateTimeUtc ? dayjs.utc(bounds.endDateTimeUtc) : null,
  };
}

/** The bounds of the valid ends of a draft; an incomplete end is left out. */
export function rangeBoundsOf(draft: UtcRangeDraft): UtcRangeBounds {
  const bounds: UtcRangeBounds = {};
  if (draft.from?.isValid()) bounds.startDateTimeUtc = draft.from.utc().toISOString();
  if (draft.to?.isValid()) bounds.endDateTimeUtc = draft.to.utc().toISOString();
  return bounds;
}

/** An incomplete end, or an end before the start (the API would refuse it). */
export function rangeProblemsOf(draft: UtcRangeDraft): UtcRangeProblems {
  const problems: UtcRangeProblems = {};
  if (draft.from && !draft.from.isValid()) problems.from = 'Enter a complete date and time.';
  if (draft.to && !draft.to.isValid()) problems.to = 'Enter a complete date and time.';
  if (draft.from?.isValid() && draft.to?.isValid() && draft.to.isBefore(draft.from)) {
    problems.to = 'The end must not be before the start.';
  }
  return problems;
}
