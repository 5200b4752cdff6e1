import dayjs, { type Dayjs } from 'dayjs';
import {
  TEXT_FILTER_KEYS,
  type MonitoringViewFilter,
  type RangeChoice,
  type TextFilterKey,
} from '../monitoring-view.js';

/** The filter form as typed, before it is valid enough to query. */
export interface MonitoringFilterDraft extends Record<TextFilterKey, string> {
  range: RangeChoice;
  from: Dayjs | null;
  to: Dayjs | null;
}

export type FilterDraftProblems = Partial<
  Record<'from' | 'to' | 'status' | 'minDurationMs' | 'path', string>
>;

const STATUS = /^([1-5]\d{2}|[1-5][xX]{2})$/;
const DURATION = /^\d{1,9}(\.\d{1,6})?$/;
const MAX_DURATION_MS = 86_400_000;

export function draftOf(filter: MonitoringViewFilter): MonitoringFilterDraft {
  const draft = {
    range: filter.range,
    from: filter.startDateTimeUtc ? dayjs.utc(filter.startDateTimeUtc) : null,
    to: filter.endDateTimeUtc ? dayjs.utc(filter.endDateTimeUtc) : null,
  } as MonitoringFilterDraft;
  for (const key of TEXT_FILTER_KEYS) draft[key] = filter[key] ?? '';
  return draft;
}

export function emptyDraft(): MonitoringFilterDraft {
  return draftOf({ range: '24h' });
}

export function problemsOf(draft: MonitoringFilterDraft): FilterDraftProblems {
  const problems: FilterDraftProblems = {};
  if (draft.range === 'custom') {
    if (draft.from && !draft.from.isValid()) problems.from = 'Enter a complete date and time.';
    if (draft.to && !draft.to.isValid()) problems.to = 'Enter a complete date and time.';
    if (draft.from?.isValid() && draft.to?.isValid() && draft.to.isBefore(draft.from))
      problems.to = 'The end must not be before the start.';
  }
  const status = draft.status.trim();
  if (status && !STATUS.test(status)) problems.status = 'A code such as 404, or a class such as 4xx.';
  const duration = draft.minDurationMs.trim();
  if (duration && (!DURATION.test(duration) || Number(duration) > MAX_DURATION_MS))
    problems.minDurationMs = 'Milliseconds, from 0 to 86,400,000.';
  const path = draft.path.trim();
  if (path && !path.startsWith('/')) problems.path = 'A path prefix starts with /.';
  return problems;
}

/** The view filter of a valid draft. */
export function filterOf(draft: MonitoringFilterDraft): MonitoringViewFilter {
  const filter: MonitoringViewFilter = { range: draft.range };
  if (draft.range === 'custom') {
    if (draft.from?.isValid()) filter.startDateTimeUtc = draft.from.utc().toISOString();
    if (draft.to?.isValid()) filter.endDateTimeUtc = draft.to.utc().toISOString();
  }
  for (const key of TEXT_FILTER_KEYS) {
    const value = draft[key].trim();
    if (value) filter[key] = key === 'status' ? value.toLowerCase() : value;
  }
  return filter;
}

export function isEmptyDraft(draft: MonitoringFilterDraft): boolean {
  return draft.range === '24h' && TEXT_FILTER_KEYS.every((key) => !draft[key]);
}
