import { useCallback, useEffect, useRef, useState } from 'react';
import type { ApiClient } from '../../api/api-client.js';
import { isAbortError } from '../../api/api-errors.js';
import { useApiClient } from '../../session/session-context.js';

export interface RefreshableQuery<T> {
  /** The last answer; kept while a newer one loads. */
  data: T | undefined;
  error: unknown;
  /** The key changed and its first answer has not arrived: the grid shows its loading overlay. */
  loading: boolean;
  /** A background refresh is running (no overlay, the rows stay put). */
  refreshing: boolean;
  /** When the data shown was loaded. */
  loadedAt: Date | undefined;
  /** Loads again in the background; ignored while a load is already running. */
  refresh: () => void;
}

/**
 * Like useApiQuery, for data that is refreshed while the user looks at it: a refresh does not blank the grid
 * or show a spinner, and refreshes never pile up behind a slow answer.
 */
export function useRefreshableQuery<T>(
  key: string,
  load: (client: ApiClient, signal: AbortSignal) => Promise<T>,
): RefreshableQuery<T> {
  const client = useApiClient();
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [settledKey, setSettledKey] = useState<string | undefined>(undefined);
  const [loadedAt, setLoadedAt] = useState<Date | undefined>(undefined);
  const [generation, setGeneration] = useState(0);
  const [refreshing, setRefreshing] = useState(false);
  const inFlight = useRef(false);
  const loadRef = useRef(load);
  useEffect(() => {
    loadRef.current = load;
  });

  useEffect(() => {
    const controller = new AbortController();
    inFlight.current = true;
    loadRef.current(client, controller.signal).then(
      (result) => {
        inFlight.current = false;
        setData(result);
        setError(undefined);
        setSettledKey(key);
        setLoadedAt(new Date());
        setRefreshing(false);
      },
      (failure: unknown) => {
        if (isAbortError(failure)) return;
        inFlight.current = false;
        setError(failure);
        setSettledKey(key);
        setRefreshing(false);
      },
    );
    return () => {
      inFlight.current = false;
      controller.abort();
    };
  }, [client, key, generation]);

  const refresh = useCallback(() => {
    if (inFlight.current) return;
    setRefreshing(true);
    setGeneration((value) => value + 1);
  }, []);

  return { data, error, loading: settledKey !== key, refreshing, loadedAt, refresh };
}
