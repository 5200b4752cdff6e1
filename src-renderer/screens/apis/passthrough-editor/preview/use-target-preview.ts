import { useEffect, useMemo, useRef, useState } from 'react';
import { isAbortError } from '../../../../api/api-errors.js';
import { passthroughApi } from '../../../../api/passthrough-endpoints.js';
import type { PassthroughPreview, PassthroughPreviewRequest } from '../../../../api/types.js';
import { useApiClient } from '../../../../session/session-context.js';
import { buildPreviewRequest, type SampleDraft } from './preview-request.js';
import type { EntryDraft } from '../draft/editor-draft.js';

export const PREVIEW_DEBOUNCE_MS = 250;

/** `pending` while typing or in flight; `ready` or `error` once the shown result is that of the current inputs. */
export type PreviewState = 'pending' | 'ready' | 'error';

export interface PreviewResult {
  key: string;
  request: PassthroughPreviewRequest;
  rowKeys: number[];
  preview?: PassthroughPreview;
  failure?: unknown;
}

export interface TargetPreview {
  state: PreviewState;
  /** The latest result, kept (dimmed) while a newer one is pending, so the preview does not flash. */
  result: PreviewResult | undefined;
}

/**
 * The server's preview of the unsaved entry, as one types: debounced, the previous request cancelled. The
 * request leaves from the debounce timer itself rather than from a re-render on a debounced value, which would
 * cost a render of the whole editor before the request is even sent.
 */
export function useTargetPreview(
  apiId: string,
  entryKey: string,
  entry: EntryDraft,
  sample: SampleDraft,
): TargetPreview {
  const client = useApiClient();
  const built = useMemo(() => buildPreviewRequest(entryKey, entry, sample), [entryKey, entry, sample]);
  const key = JSON.stringify(built);
  const [result, setResult] = useState<PreviewResult | undefined>(undefined);
  /** Until a first result is shown there is nothing to keep typing over: the first request is not delayed. */
  const hasResult = useRef(false);

  useEffect(() => {
    const controller = new AbortController();
    const send = (): void => {
      const { request, rowKeys } = JSON.parse(key) as ReturnType<typeof buildPreviewRequest>;
      const show = (outcome: Pick<PreviewResult, 'preview' | 'failure'>): void => {
        hasResult.current = true;
        setResult({ key, request, rowKeys, ...outcome });
      };
      passthroughApi.preview(client, apiId, request, { signal: controller.signal }).then(
        (preview) => show({ preview }),
        (failure: unknown) => {
          if (!isAbortError(failure)) show({ failure });
        },
      );
    };
    const timer = hasResult.current ? setTimeout(send, PREVIEW_DEBOUNCE_MS) : undefined;
    if (timer === undefined) send();
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [client, apiId, key]);

  let state: PreviewState = 'pending';
  if (result?.key === key) {
    state = result.failure !== undefined || (result.preview?.errors.length ?? 0) > 0 ? 'error' : 'ready';
  }
  return { state, result };
}
