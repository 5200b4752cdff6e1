import { useMemo } from 'react';
import type { AuditLogFilter } from '../../api/types.js';
import { navigate, type NavigateOptions } from '../../router/history.js';
import { useLocation } from '../../router/hooks.js';
import { readAuditView, sameFilter, writeAuditView, type AuditView } from './audit-view.js';

/** The view in the address bar now; the changes below start from it, so they need no state of a render. */
export function currentAuditView(): AuditView {
  return readAuditView(new URLSearchParams(window.location.search));
}

function show(view: AuditView, options?: NavigateOptions): void {
  const query = writeAuditView(view).toString();
  navigate(`${window.location.pathname}${query ? `?${query}` : ''}`, options);
}

export function showAuditPage(page: number): void {
  show({ ...currentAuditView(), page });
}

export function showAuditPageSize(pageSize: number): void {
  show({ ...currentAuditView(), pageSize, page: 1 });
}

/** A new filter starts again at page 1. */
export function applyAuditFilter(filter: AuditLogFilter): void {
  const current = currentAuditView();
  if (sameFilter(filter, current.filter)) return;
  // Typing in a filter should not leave one history entry per debounced keystroke.
  show({ ...current, filter, page: 1 }, { replace: true });
}

/** The view in the URL; its filter stays the same object while only the page changes, for memoized children. */
export function useAuditView(): AuditView {
  const { search } = useLocation();
  const parsed = useMemo(() => readAuditView(new URLSearchParams(search)), [search]);
  const filterKey = JSON.stringify(parsed.filter);
  const filter = useMemo(() => JSON.parse(filterKey) as AuditLogFilter, [filterKey]);
  return useMemo(
    () => ({ page: parsed.page, pageSize: parsed.pageSize, filter }),
    [parsed.page, parsed.pageSize, filter],
  );
}
