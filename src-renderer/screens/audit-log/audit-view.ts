import {
  AUDIT_DEFAULT_PAGE_SIZE,
  AUDIT_PAGE_SIZES,
  type AuditLogFilter,
  type AuditLogQuery,
} from '../../api/types.js';
import { pagedUrlView, utcInstant, type PagedView } from '../../router/paged-url-view.js';

/** What the audit screen shows; it lives in the URL query so a view can be bookmarked and shared. */
export type AuditView = PagedView<AuditLogFilter>;

const FILTER_KEYS = [
  'tenant',
  'startDateTimeUtc',
  'endDateTimeUtc',
  'actionName',
  'userName',
  'instance',
  'resource',
  'search',
] as const;
const DATE_KEYS = new Set<string>(['startDateTimeUtc', 'endDateTimeUtc']);

/** The audit log's view in the URL: tenant, page, page size, time range, action, user, instance and resource. */
export const AUDIT_VIEW = pagedUrlView<AuditLogFilter>({
  read(params) {
    const filter: AuditLogFilter = {};
    for (const key of FILTER_KEYS) {
      const value = params.get(key)?.trim();
      // Date-times in one spelling, so the form and the URL compare equal; one that does not parse stays as typed.
      if (value) filter[key] = DATE_KEYS.has(key) ? (utcInstant(value) ?? value) : value;
    }
    return filter;
  },
  write(filter, params) {
    for (const key of FILTER_KEYS) {
      const value = filter[key];
      if (value) params.set(key, value);
    }
  },
  pageSizes: AUDIT_PAGE_SIZES,
  defaultPageSize: AUDIT_DEFAULT_PAGE_SIZE,
});

export function toAuditQuery(view: AuditView): AuditLogQuery {
  return { ...view.filter, PageNumber: view.page, PageSize: view.pageSize };
}

/** The console's address of a filter's first page (for links such as "everything that touched this resource"). */
export function auditViewHref(filter: AuditLogFilter): string {
  const query = AUDIT_VIEW.write({ page: 1, pageSize: AUDIT_DEFAULT_PAGE_SIZE, filter }).toString();
  return `/audit-log${query ? `?${query}` : ''}`;
}
