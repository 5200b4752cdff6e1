import { useCallback, useEffect, useRef, useState } from 'react';
import { isAbortError, isProblem } from '../../api/api-errors.js';
import { auditLogApi } from '../../api/endpoints.js';
import type { AuditLogPage, AuditLogQuery } from '../../api/types.js';
import { subscribeToLocation } from '../../router/history.js';
import { useApiClient } from '../../session/session-context.js';
import { AUDIT_VIEW, toAuditQuery } from './audit-view.js';
import { problemsOfFilter } from './filter-draft.js';
import { pageQuery, type ShownPage } from './next-page-query.js';

/** A token the server no longer takes (a day old, or from before a restore): the page is asked for by number. */
const STALE_TOKEN = [
  'GH_ERR_CONTINUATION_TOKEN_EXPIRED',
  'GH_ERR_CONTINUATION_TOKEN_INVALID',
  'GH_ERR_CONTINUATION_TOKEN_MISMATCH',
] as const;

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

  const shown = useRef<ShownPage | undefined>(undefined);

  const load = useCallback(
    (again = false) => {
      const view = AUDIT_VIEW.current();
      const numbered = toAuditQuery(view);
      const key = JSON.stringify(numbered);
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
      const ask = (query: AuditLogQuery) => auditLogApi.list(client, query, { signal: controller.signal });
      const query = pageQuery(view, again ? undefined : shown.current);
      ask(query)
        .catch((error: unknown) => {
          if (query.continuationToken !== undefined && isProblem(error, ...STALE_TOKEN)) return ask(numbered);
          throw error;
        })
        .then(
          (data) => {
            if (sent.current !== request) return;
            shown.current = { view, data };
            setState({ data, error: undefined, loading: false });
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
