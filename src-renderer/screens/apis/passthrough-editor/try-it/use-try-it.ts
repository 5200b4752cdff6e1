import { useCallback, useEffect, useRef, useState } from 'react';
import { isAbortError } from '../../../../api/api-errors.js';
import { tryItApi } from '../../../../api/try-it-endpoints.js';
import type { TryItRequest, TryItResult } from '../../../../api/types.js';
import { useApiClient } from '../../../../session/session-context.js';

export interface TryItState {
  result: TryItResult | undefined;
  error: unknown;
  sending: boolean;
  send: (request: TryItRequest) => void;
  /** Stops waiting for the answer (the request already sent still runs to its end at the gateway). */
  cancel: () => void;
}

/** Sends "Try it" requests for one API; a new send, or leaving, cancels the one in flight. */
export function useTryIt(apiId: string): TryItState {
  const client = useApiClient();
  const [result, setResult] = useState<TryItResult | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [sending, setSending] = useState(false);
  const controllerRef = useRef<AbortController | undefined>(undefined);

  useEffect(() => () => controllerRef.current?.abort(), []);

  const send = useCallback(
    (request: TryItRequest) => {
      controllerRef.current?.abort();
      const controller = new AbortController();
      controllerRef.current = controller;
      setSending(true);
      setError(undefined);
      tryItApi.send(client, apiId, request, { signal: controller.signal }).then(
        (answer) => {
          if (controller.signal.aborted) return;
          setResult(answer);
          setSending(false);
        },
        (failure: unknown) => {
          if (isAbortError(failure) || controller.signal.aborted) return;
          setResult(undefined);
          setError(failure);
          setSending(false);
        },
      );
    },
    [client, apiId],
  );

  const cancel = useCallback(() => {
    controllerRef.current?.abort();
    controllerRef.current = undefined;
    setSending(false);
  }, []);

  return { result, error, sending, send, cancel };
}
