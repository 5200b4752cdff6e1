import { useCallback, useEffect, useRef, useState } from 'react';
import { isAbortError } from '../../api/api-errors.js';
import { auditLogApi } from '../../api/endpoints.js';
import type { AuditLogPage } from '../../api/types.js';
import { subscribeToLocation } from '../../router/history.js';
import { useApiClient } from '../../session/session-context.js';
import { AUDIT_VIEW, toAuditQuery } from './audit-view.js';
import { problemsOfFilter } from './filter-draft.js';

export interface AuditPage {
  /** The last page received; kept while the next one loads, so the rows do not flash empty. */
  data: AuditLogPage | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

interface PageState {
  data: AuditLogPage | undefined;
  error: unknown;
  loading: boolean;
}

/**
 * The entries of the view in the URL. Each change of the URL (pager, applied filter, Back/Forward) sends its request
 * from the location event itself, before React re-renders for the new view, and cancels the previous one.
 */
export function useAuditPage(enabled: boolean): AuditPage {
  const client = useApiClient();
  const [state, setState] = useState<PageState>({ data: undefined, error: undefined, loading: enabled });
  const sent = useRef<{ key: string; controller: AbortController } | undefined>(undefined);

  const load = useCallback(
    (again = false) => {
      const view = AUDIT_VIEW.current();
      const query = toAuditQuery(view);
      const key = JSON.stringify(query);
      if (!again && sent.current?.key === key) return;
      sent.current?.controller.abort();
      // A filter the API would refuse (an end before the start, from a URL) is not sent: the form says why.
      if (Object.keys(problemsOfFilter(view.filter)).length > 0) {
        sent.current = undefined;
        setState({ data: undefined, error: undefined, loading: false });
        return;
      }
      const controller = new AbortController();
      const request = { key, controller };
      sent.current = request;
      setState((current) => (current.loading ? current : { ...current, loading: true }));
      auditLogApi.list(client, query, { signal: controller.signal }).then(
        (data) => {
          if (sent.current === request) setState({ data, error: undefined, loading: false });
        },
        (error: unknown) => {
          if (sent.current === request && !isAbortError(error))
            setState((current) => ({ ...current, error, loading: false }));
        },
      );
    },
    [client],
  );

  useEffect(() => {
    if (!enabled) return;
    const path = window.location.pathname;
    load();
    // Other screens' URLs are not audit views: this runs until React has unmounted the screen.
    const unsubscribe = subscribeToLocation(() => {
      if (window.location.pathname === path) load();
    });
    return () => {
      unsubscribe();
      sent.current?.controller.abort();
      sent.current = undefined;
    };
  }, [enabled, load]);

  const reload = useCallback(() => load(true), [load]);
  return { ...state, reload };
}
