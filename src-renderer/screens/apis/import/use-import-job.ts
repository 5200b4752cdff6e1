import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiProblemError, isAbortError } from '../../../api/api-errors.js';
import { apiImportsApi } from '../../../api/apis-endpoints.js';
import type { ApiImportJob } from '../../../api/types.js';
import type { UploadProgress } from '../../../api/xhr-upload.js';
import { useApiClient } from '../../../session/session-context.js';

/** Where an import reads from. */
export type ImportSource =
  { kind: 'file'; file: File } | { kind: 'url'; url: string; allowPrivateAddress: boolean };

/**
 * `uploading` while the file's bytes go out; `reading` while the server loads (a URL), parses and checks it in
 * the background; `ready` once it can be applied; `failed` with the problem the server answered.
 */
export type ImportJobState =
  | { phase: 'idle' }
  | { phase: 'uploading'; progress: UploadProgress }
  | { phase: 'reading'; job: ApiImportJob | undefined }
  | { phase: 'ready'; job: ApiImportJob }
  | { phase: 'failed'; error: unknown };

const POLL_MS = 200;

/** One import at a time: start, follow, cancel (the server stops reading), and the job once ready. */
export function useImportJob(apiId?: string) {
  const client = useApiClient();
  const [state, setState] = useState<ImportJobState>({ phase: 'idle' });
  const run = useRef<{ controller: AbortController; jobId?: string } | undefined>(undefined);

  const cancel = useCallback(() => {
    const current = run.current;
    run.current = undefined;
    if (!current) return;
    current.controller.abort();
    // The job may be gone already (applied, expired); cancelling is then nothing to report.
    if (current.jobId) void apiImportsApi.cancel(client, current.jobId).catch(() => undefined);
    setState({ phase: 'idle' });
  }, [client]);

  useEffect(() => () => cancel(), [cancel]);

  const start = useCallback(
    async (source: ImportSource): Promise<ApiImportJob | undefined> => {
      cancel();
      const mine = {
        controller: new AbortController(),
        jobId: undefined as string | undefined,
      };
      run.current = mine;
      const { signal } = mine.controller;
      try {
        let job: ApiImportJob;
        if (source.kind === 'file') {
          setState({ phase: 'uploading', progress: { loaded: 0, total: source.file.size } });
          job = await apiImportsApi.startUpload(client, source.file, {
            signal,
            onProgress: (progress) =>
              setState(
                progress.loaded >= progress.total
                  ? { phase: 'reading', job: undefined }
                  : { phase: 'uploading', progress },
              ),
          });
        } else {
          setState({ phase: 'reading', job: undefined });
          job = await apiImportsApi.startUrl(client, {
            url: source.url,
            allowPrivateAddress: source.allowPrivateAddress,
          });
        }
        mine.jobId = job.id;
        while (job.state === 'running') {
          if (run.current !== mine) return undefined;
          setState({ phase: 'reading', job });
          await new Promise((resolve) => setTimeout(resolve, POLL_MS));
          job = await apiImportsApi.get(client, job.id, apiId, { signal });
        }
        if (run.current !== mine) return undefined;
        if (job.state !== 'ready') {
          setState({ phase: 'failed', error: problemOfJob(job) });
          return undefined;
        }
        setState({ phase: 'ready', job });
        return job;
      } catch (error) {
        if (run.current === mine)
          setState(isAbortError(error) ? { phase: 'idle' } : { phase: 'failed', error });
        return undefined;
      }
    },
    [apiId, cancel, client],
  );

  /** Forgets the job without cancelling it on the server (applied, or about to be). */
  const release = useCallback(() => {
    run.current = undefined;
  }, []);
  const reset = useCallback(() => setState({ phase: 'idle' }), []);
  const busy = state.phase === 'uploading' || state.phase === 'reading';
  return { state, busy, start, cancel, release, reset };
}

/** The problem a failed import ran into, as the error the synchronous endpoints would have thrown. */
function problemOfJob(job: ApiImportJob): ApiProblemError {
  const problem = job.problem ?? { status: 500, detail: 'The import stopped.' };
  return new ApiProblemError(problem.status, { ...problem, title: problem.detail ?? 'The import failed' });
}
