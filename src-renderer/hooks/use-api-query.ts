import { useCallback, useEffect, useRef, useState } from 'react';
import type { ApiClient } from '../api/api-client.js';
import { isAbortError } from '../api/api-errors.js';
import { useApiClient } from '../session/session-context.js';

export interface ApiQuery<T> {
  /** The last successful answer; kept while a newer request loads, so tables do not flash empty. */
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

/**
 * Runs a GET whenever `key` changes (a string naming everything the request depends on), cancelling the previous
 * one. Network failures are retried inside the API client; what arrives here is an answer or a final error.
 */
export function useApiQuery<T>(
  key: string | null,
  load: (client: ApiClient, signal: AbortSignal) => Promise<T>,
): ApiQuery<T> {
  const client = useApiClient();
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [loading, setLoading] = useState(key !== null);
  const [generation, setGeneration] = useState(0);
  const loadRef = useRef(load);
  useEffect(() => {
    loadRef.current = load;
  });

  useEffect(() => {
    if (key === null) return;
    const controller = new AbortController();
    setLoading(true);
    loadRef.current(client, controller.signal).then(
      (result) => {
        setData(result);
        setError(undefined);
        setLoading(false);
      },
      (failure: unknown) => {
        if (isAbortError(failure)) return;
        setError(failure);
        setLoading(false);
      },
    );
    return () => controller.abort();
  }, [client, key, generation]);

  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  return { data, error, loading, reload };
}
