import { useCallback, useEffect, useRef, useState } from 'react';
import { isAbortError } from '../../../api/api-errors.js';
import type { DocumentUploadOptions } from '../../../api/apis-endpoints.js';
import type { UploadProgress } from '../../../api/xhr-upload.js';

/** `uploading` while bytes go out; `processing` once all are sent and the server reads the document. */
export type UploadState<T> =
  | { phase: 'idle' }
  | { phase: 'uploading'; progress: UploadProgress }
  | { phase: 'processing' }
  | { phase: 'failed'; error: unknown }
  | { phase: 'done'; result: T };

export interface DocumentUpload<T> {
  state: UploadState<T>;
  busy: boolean;
  /** Runs the upload; resolves with the result, or undefined when it failed or was cancelled. */
  start: (file: File, send: (options: DocumentUploadOptions) => Promise<T>) => Promise<T | undefined>;
  cancel: () => void;
  reset: () => void;
}

/** The state of one document upload at a time, with progress and cancellation. */
export function useDocumentUpload<T>(): DocumentUpload<T> {
  const [state, setState] = useState<UploadState<T>>({ phase: 'idle' });
  const controllerRef = useRef<AbortController | undefined>(undefined);
  useEffect(() => () => controllerRef.current?.abort(), []);

  const start = useCallback(async (file: File, send: (options: DocumentUploadOptions) => Promise<T>) => {
    controllerRef.current?.abort();
    const controller = new AbortController();
    controllerRef.current = controller;
    setState({ phase: 'uploading', progress: { loaded: 0, total: file.size } });
    try {
      const result = await send({
        signal: controller.signal,
        onProgress: (progress) =>
          setState(
            progress.loaded >= progress.total ? { phase: 'processing' } : { phase: 'uploading', progress },
          ),
      });
      setState({ phase: 'done', result });
      return result;
    } catch (error) {
      setState(isAbortError(error) ? { phase: 'idle' } : { phase: 'failed', error });
      return undefined;
    } finally {
      if (controllerRef.current === controller) controllerRef.current = undefined;
    }
  }, []);

  const cancel = useCallback(() => controllerRef.current?.abort(), []);
  const reset = useCallback(() => setState({ phase: 'idle' }), []);
  const busy = state.phase === 'uploading' || state.phase === 'processing';
  return { state, busy, start, cancel, reset };
}
