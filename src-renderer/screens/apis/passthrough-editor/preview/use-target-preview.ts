import { useEffect, useMemo, useState } from 'react';
import { isAbortError } from '../../../../api/api-errors.js';
import { passthroughApi } from '../../../../api/passthrough-endpoints.js';
import type { PassthroughPreview, PassthroughPreviewRequest } from '../../../../api/passthrough-types.js';
import { useDebouncedValue } from '../../../../hooks/use-debounced-value.js';
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

/** The server's preview of the unsaved entry, as one types: debounced, the previous request cancelled. */
export function useTargetPreview(
  apiId: string,
  entryKey: string,
  entry: EntryDraft,
  sample: SampleDraft,
): TargetPreview {
  const client = useApiClient();
  const built = useMemo(() => buildPreviewRequest(entryKey, entry, sample), [entryKey, entry, sample]);
  const key = JSON.stringify(built);
  const debouncedKey = useDebouncedValue(key, PREVIEW_DEBOUNCE_MS);
  const [result, setResult] = useState<PreviewResult | undefined>(undefined);

  useEffect(() => {
    const { request, rowKeys } = JSON.parse(debouncedKey) as ReturnType<typeof buildPreviewRequest>;
    const controller = new AbortController();
    passthroughApi.preview(client, apiId, request, { signal: controller.signal }).then(
      (preview) => setResult({ key: debouncedKey, request, rowKeys, preview }),
      (failure: unknown) => {
        if (!isAbortError(failure)) setResult({ key: debouncedKey, request, rowKeys, failure });
      },
    );
    return () => controller.abort();
  }, [client, apiId, debouncedKey]);

  let state: PreviewState = 'pending';
  if (result?.key === key) {
    state = result.failure !== undefined || (result.preview?.errors.length ?? 0) > 0 ? 'error' : 'ready';
  }
  return { state, result };
}
