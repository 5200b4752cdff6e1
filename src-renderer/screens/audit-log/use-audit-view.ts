import { useCallback, useMemo } from 'react';
import type { AuditLogFilter } from '../../api/types.js';
import { useSearchParams } from '../../router/hooks.js';
import { readAuditView, sameFilter, writeAuditView, type AuditView } from './audit-view.js';

export interface AuditViewControls {
  view: AuditView;
  setPage(page: number): void;
  setPageSize(pageSize: number): void;
  /** A new filter starts again at page 1. */
  setFilter(filter: AuditLogFilter): void;
}

export function useAuditView(): AuditViewControls {
  const [params, setParams] = useSearchParams();
  const search = params.toString();
  const view = useMemo(() => readAuditView(new URLSearchParams(search)), [search]);

  const setPage = useCallback(
    (page: number) => setParams(writeAuditView({ ...view, page })),
    [setParams, view],
  );
  const setPageSize = useCallback(
    (pageSize: number) => setParams(writeAuditView({ ...view, pageSize, page: 1 })),
    [setParams, view],
  );
  const setFilter = useCallback(
    (filter: AuditLogFilter) => {
      if (sameFilter(filter, view.filter)) return;
      // Typing in a filter should not leave one history entry per debounced keystroke.
      setParams(writeAuditView({ ...view, filter, page: 1 }), { replace: true });
    },
    [setParams, view],
  );
  return { view, setPage, setPageSize, setFilter };
}
