import dayjs, { type Dayjs } from 'dayjs';
import type { AuditLogFilter } from '../../api/types.js';

/** The filter form as typed, before it is valid enough to query. */
export interface FilterDraft {
  from: Dayjs | null;
  to: Dayjs | null;
  action: string;
  user: string;
}

export interface DraftProblems {
  from?: string;
  to?: string;
  action?: string;
}

export const EMPTY_DRAFT: FilterDraft = { from: null, to: null, action: '', user: '' };

/** `{Controller}.{Action}`, the same rule the API applies to `actionName`. */
const ACTION_NAME = /^[^\s.]+\.\S+$/;

export function draftOf(filter: AuditLogFilter): FilterDraft {
  return {
    from: filter.startDateTimeUtc ? dayjs.utc(filter.startDateTimeUtc) : null,
    to: filter.endDateTimeUtc ? dayjs.utc(filter.endDateTimeUtc) : null,
    action: filter.actionName ?? '',
    user: filter.userName ?? '',
  };
}

export function problemsOf(draft: FilterDraft): DraftProblems {
  const problems: DraftProblems = {};
  if (draft.from && !draft.from.isValid()) problems.from = 'Enter a complete date and time.';
  if (draft.to && !draft.to.isValid()) problems.to = 'Enter a complete date and time.';
  if (draft.from?.isValid() && draft.to?.isValid() && draft.to.isBefore(draft.from)) {
    problems.to = 'The end must not be before the start.';
  }
  const action = draft.action.trim();
  if (action && !ACTION_NAME.test(action))
    problems.action = 'Use the form Controller.Action, e.g. TenantSettings.Modify.';
  return problems;
}

export function sameProblems(a: DraftProblems, b: DraftProblems): boolean {
  return a.from === b.from && a.to === b.to && a.action === b.action;
}

/** The API filter of a valid draft; ISO 8601 in UTC with `Z`. */
export function filterOf(draft: FilterDraft): AuditLogFilter {
  const filter: AuditLogFilter = {};
  if (draft.from?.isValid()) filter.startDateTimeUtc = draft.from.utc().toISOString();
  if (draft.to?.isValid()) filter.endDateTimeUtc = draft.to.utc().toISOString();
  if (draft.action.trim()) filter.actionName = draft.action.trim();
  if (draft.user.trim()) filter.userName = draft.user.trim();
  return filter;
}
