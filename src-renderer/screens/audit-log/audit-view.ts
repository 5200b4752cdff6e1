import {
  AUDIT_DEFAULT_PAGE_SIZE,
  AUDIT_PAGE_SIZES,
  type AuditLogFilter,
  type AuditLogQuery,
} from '../../api/types.js';

/** What the audit screen shows; it lives in the URL query so a view can be bookmarked and shared. */
export interface AuditView {
  /** 1-based, like the API. */
  page: number;
  pageSize: number;
  filter: AuditLogFilter;
}

// The API's own parameter names, so a console URL and an API URL read the same.
const FILTER_KEYS = ['startDateTimeUtc', 'endDateTimeUtc', 'actionName', 'userName'] as const;

function positiveInt(text: string | null): number | undefined {
  if (!text || !/^\d{1,9}$/.test(text)) return undefined;
  const value = Number(text);
  return value >= 1 ? value : undefined;
}

const DATE_KEYS = new Set<string>(['startDateTimeUtc', 'endDateTimeUtc']);

/** Date-times in one spelling (ISO with milliseconds and `Z`), so the form and the URL compare equal. */
function normalized(key: string, value: string): string {
  if (!DATE_KEYS.has(key)) return value;
  // Like the API: a date-time without an offset is UTC.
  const withZone = /(?:[zZ]|[+-]\d\d:?\d\d)$/.test(value) ? value : `${value}Z`;
  const ms = Date.parse(withZone);
  return Number.isNaN(ms) ? value : new Date(ms).toISOString();
}

export function readAuditView(params: URLSearchParams): AuditView {
  const filter: AuditLogFilter = {};
  for (const key of FILTER_KEYS) {
    const value = params.get(key)?.trim();
    if (value) filter[key] = normalized(key, value);
  }
  const pageSize = positiveInt(params.get('PageSize'));
  return {
    page: positiveInt(params.get('PageNumber')) ?? 1,
    pageSize:
      pageSize && (AUDIT_PAGE_SIZES as readonly number[]).includes(pageSize)
        ? pageSize
        : AUDIT_DEFAULT_PAGE_SIZE,
    filter,
  };
}

export function writeAuditView(view: AuditView): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of FILTER_KEYS) {
    const value = view.filter[key];
    if (value) params.set(key, value);
  }
  if (view.page !== 1) params.set('PageNumber', String(view.page));
  if (view.pageSize !== AUDIT_DEFAULT_PAGE_SIZE) params.set('PageSize', String(view.pageSize));
  return params;
}

export function toAuditQuery(view: AuditView): AuditLogQuery {
  return { ...view.filter, PageNumber: view.page, PageSize: view.pageSize };
}

export function sameFilter(a: AuditLogFilter, b: AuditLogFilter): boolean {
  return FILTER_KEYS.every((key) => (a[key] ?? '') === (b[key] ?? ''));
}
