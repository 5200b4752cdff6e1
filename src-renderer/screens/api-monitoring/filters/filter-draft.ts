import {
  rangeBoundsOf,
  rangeDraftOf,
  rangeProblemsOf,
  type UtcRangeDraft,
} from '../../../format/utc-range.js';
import type { FilterForm } from '../../../hooks/use-filter-draft.js';
import {
  MONITORING_VIEW,
  TEXT_FILTER_KEYS,
  type MonitoringViewFilter,
  type RangeChoice,
  type TextFilterKey,
} from '../monitoring-view.js';

/** The filter form as typed, before it is valid enough to query. */
export interface MonitoringFilterDraft extends Record<TextFilterKey, string>, UtcRangeDraft {
  range: RangeChoice;
}

export type FilterDraftProblems = Partial<
  Record<'from' | 'to' | 'status' | 'minDurationMs' | 'path', string>
>;

const STATUS = /^([1-5]\d{2}|[1-5][xX]{2})$/;
const DURATION = /^\d{1,9}(\.\d{1,6})?$/;
const MAX_DURATION_MS = 86_400_000;

function draftOf(filter: MonitoringViewFilter): MonitoringFilterDraft {
  const draft = { range: filter.range, ...rangeDraftOf(filter) } as MonitoringFilterDraft;
  for (const key of TEXT_FILTER_KEYS) draft[key] = filter[key] ?? '';
  return draft;
}

export function emptyDraft(): MonitoringFilterDraft {
  return draftOf({ range: '24h' });
}

export const MONITORING_FILTER_FORM: FilterForm<
  MonitoringViewFilter,
  MonitoringFilterDraft,
  FilterDraftProblems
> = {
  draftOf,
  problemsOf(draft) {
    const problems: FilterDraftProblems = draft.range === 'custom' ? rangeProblemsOf(draft) : {};
    const status = draft.status.trim();
    if (status && !STATUS.test(status)) problems.status = 'A code such as 404, or a class such as 4xx.';
    const duration = draft.minDurationMs.trim();
    if (duration && (!DURATION.test(duration) || Number(duration) > MAX_DURATION_MS))
      problems.minDurationMs = 'Milliseconds, from 0 to 86,400,000.';
    const path = draft.path.trim();
    if (path && !path.startsWith('/')) problems.path = 'A path prefix starts with /.';
    return problems;
  },
  filterOf(draft) {
    const filter: MonitoringViewFilter = {
      range: draft.range,
      ...(draft.range === 'custom' ? rangeBoundsOf(draft) : {}),
    };
    for (const key of TEXT_FILTER_KEYS) {
      const value = draft[key].trim();
      if (value) filter[key] = key === 'status' ? value.toLowerCase() : value;
    }
    return filter;
  },
  sameFilter: MONITORING_VIEW.sameFilter,
};

export function isEmptyDraft(draft: MonitoringFilterDraft): boolean {
  return draft.range === '24h' && TEXT_FILTER_KEYS.every((key) => !draft[key]);
}
