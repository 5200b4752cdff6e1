import { useCallback, useMemo } from 'react';
import { useSearchParams } from '../../router/hooks.js';
import {
  readMonitoringView,
  sameViewFilter,
  writeMonitoringView,
  type MonitoringView,
  type MonitoringViewFilter,
} from './monitoring-view.js';

export interface MonitoringViewControls {
  view: MonitoringView;
  setPage: (page: number) => void;
  setPageSize: (pageSize: number) => void;
  /** A new filter starts again at page 1. */
  setFilter: (filter: MonitoringViewFilter) => void;
}

/** The monitoring screen's page, page size and filters, kept in the URL. */
export function useMonitoringView(): MonitoringViewControls {
  const [params, setParams] = useSearchParams();
  const search = params.toString();
  const view = useMemo(() => readMonitoringView(new URLSearchParams(search)), [search]);
  const setPage = useCallback(
    (page: number) => setParams(writeMonitoringView({ ...view, page })),
    [setParams, view],
  );
  const setPageSize = useCallback(
    (pageSize: number) => setParams(writeMonitoringView({ ...view, pageSize, page: 1 })),
    [setParams, view],
  );
  const setFilter = useCallback(
    (filter: MonitoringViewFilter) => {
      if (sameViewFilter(filter, view.filter)) return;
      // Typing in a filter should not leave one history entry per debounced keystroke.
      setParams(writeMonitoringView({ ...view, filter, page: 1 }), { replace: true });
    },
    [setParams, view],
  );
  return { view, setPage, setPageSize, setFilter };
}
