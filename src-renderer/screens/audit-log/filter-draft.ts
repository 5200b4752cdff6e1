import type { AuditLogFilter } from '../../api/types.js';
import { rangeBoundsOf, rangeDraftOf, rangeProblemsOf, type UtcRangeDraft } from '../../format/utc-range.js';
import type { FilterForm } from '../../hooks/use-filter-draft.js';
import { AUDIT_VIEW } from './audit-view.js';

/** The filter form as typed, before it is valid enough to query. */
export interface FilterDraft extends UtcRangeDraft {
  action: string;
  user: string;
  /** Chosen with the tenant switcher, not typed: carried through the form as it is. */
  tenant?: string;
  instance: string;
  /** `{type}:{id}`, as the API takes it. */
  resource: string;
  /** Words of the parameters' values. */
  search: string;
}

export type DraftProblems = Partial<Record<'from' | 'to' | 'action' | 'resource' | 'search', string>>;

export const EMPTY_DRAFT: FilterDraft = {
  from: null,
  to: null,
  action: '',
  user: '',
  instance: '',
  resource: '',
  search: '',
};

/** `{type}:{id}`, the same rule the API applies to `resource`. */
const RESOURCE = /^[^:\s]+:.+$/;

/** `{Controller}.{Action}`, the same rule the API applies to `actionName`. */
const ACTION_NAME = /^[^\s.]+\.\S+$/;

export const AUDIT_FILTER_FORM: FilterForm<AuditLogFilter, FilterDraft, DraftProblems> = {
  draftOf: (filter) => ({
    ...rangeDraftOf(filter),
    action: filter.actionName ?? '',
    user: filter.userName ?? '',
    ...(filter.tenant ? { tenant: filter.tenant } : {}),
    instance: filter.instance ?? '',
    resource: filter.resource ?? '',
    search: filter.search ?? '',
  }),
  problemsOf(draft) {
    const problems: DraftProblems = rangeProblemsOf(draft);
    const action = draft.action.trim();
    if (action && !ACTION_NAME.test(action))
      problems.action = 'Use the form Controller.Action, e.g. TenantSettings.Modify.';
    const resource = draft.resource.trim();
    if (resource && !RESOURCE.test(resource)) problems.resource = 'Use the form Type:id, e.g. Api:5d0c6f8e.';
    // The API searches runs of letters and digits: text without any finds nothing.
    if (draft.search.trim() && !/[\p{L}\p{N}]/u.test(draft.search))
      problems.search = 'Search for at least one letter or digit.';
    return problems;
  },
  filterOf(draft) {
    const filter: AuditLogFilter = rangeBoundsOf(draft);
    if (draft.tenant) filter.tenant = draft.tenant;
    if (draft.action.trim()) filter.actionName = draft.action.trim();
    if (draft.user.trim()) filter.userName = draft.user.trim();
    if (draft.instance) filter.instance = draft.instance;
    if (draft.resource.trim()) filter.resource = draft.resource.trim();
    if (draft.search.trim()) filter.search = draft.search.trim();
    return filter;
  },
  sameFilter: AUDIT_VIEW.sameFilter,
};

/** The problems of a filter as the URL gives it (the form would show the same at its fields). */
export function problemsOfFilter(filter: AuditLogFilter): DraftProblems {
  return AUDIT_FILTER_FORM.problemsOf(AUDIT_FILTER_FORM.draftOf(filter));
}
