import type { ApiClient, DownloadedFile } from './api-client.js';
import type {
  ApiChangeSummary,
  ApiDefinition,
  ApiImportJob,
  ApiImportResult,
  ApiReimportResult,
  ApiRestoreResult,
  ApiRevisionDetails,
  ApiRevisionList,
  ApiSummary,
  ApplyImport,
  ModifyApi,
  RestoreRevision,
  UrlImport,
} from './types.js';
import { listAll } from './list-all.js';
import { uploadWithProgress, type UploadProgress } from './xhr-upload.js';

type Signal = { signal?: AbortSignal };

export interface DocumentUploadOptions {
  signal?: AbortSignal;
  onProgress?: (progress: UploadProgress) => void;
}

const byId = (id: string) => encodeURIComponent(id);

/** The media type the document is sent (and later downloaded) with; the server reads the format by content. */
export function documentContentType(file: File): string {
  const name = file.name.toLowerCase();
  if (name.endsWith('.json')) return 'application/json';
  if (name.endsWith('.yaml') || name.endsWith('.yml')) return 'application/yaml';
  if (file.type === 'application/json' || file.type.includes('yaml')) return file.type;
  return 'text/plain';
}

export const apisApi = {
  /** Every API, by name (all pages). */
  list: (client: ApiClient, { signal }: Signal = {}): Promise<ApiSummary[]> =>
    listAll<ApiSummary>(client, '/api/v1/apis', { signal }),
  get: (client: ApiClient, id: string, { signal }: Signal = {}) =>
    client.get<ApiDefinition>(`/api/v1/apis/${byId(id)}`, { signal }),
  modify: (client: ApiClient, id: string, request: ModifyApi) =>
    client.patch<ApiDefinition>(`/api/v1/apis/${byId(id)}`, request),
  remove: (client: ApiClient, id: string) => client.delete(`/api/v1/apis/${byId(id)}`),
  downloadDocument: (client: ApiClient, api: Pick<ApiSummary, 'id' | 'name'>): Promise<DownloadedFile> =>
    client.download(`/api/v1/apis/${byId(api.id)}/document`, `${api.name}.yaml`),
  revisions: (client: ApiClient, id: string, { signal }: Signal = {}) =>
    client.get<ApiRevisionList>(`/api/v1/apis/${byId(id)}/revisions`, { signal }),
  revision: (client: ApiClient, id: string, revision: number, { signal }: Signal = {}) =>
    client.get<ApiRevisionDetails>(`/api/v1/apis/${byId(id)}/revisions/${revision}`, { signal }),
  restorePreview: (client: ApiClient, id: string, revision: number, { signal }: Signal = {}) =>
    client.get<ApiChangeSummary>(`/api/v1/apis/${byId(id)}/revisions/${revision}/restore-preview`, {
      signal,
    }),
  restore: (client: ApiClient, id: string, revision: number, expectedRevision: number) =>
    client.post<ApiRestoreResult>(`/api/v1/apis/${byId(id)}/revisions/${revision}/restore`, {
      expectedRevision,
    } satisfies RestoreRevision),
};

/** Imports in steps: read in the background (progress, cancel), then applied. */
export const apiImportsApi = {
  startUpload: (client: ApiClient, file: File, options: DocumentUploadOptions = {}) =>
    uploadWithProgress<ApiImportJob>(client, {
      method: 'POST',
      path: '/api/v1/api-imports',
      query: { fileName: file.name },
      body: file,
      contentType: documentContentType(file),
      ...options,
    }),
  startUrl: (client: ApiClient, request: UrlImport) =>
    client.post<ApiImportJob>('/api/v1/api-imports/from-url', request),
  get: (client: ApiClient, id: string, apiId?: string, { signal }: Signal = {}) =>
    client.get<ApiImportJob>(`/api/v1/api-imports/${byId(id)}`, {
      signal,
      ...(apiId ? { query: { apiId } } : {}),
    }),
  cancel: (client: ApiClient, id: string) => client.delete(`/api/v1/api-imports/${byId(id)}`),
  apply: (client: ApiClient, id: string, request: ApplyImport) =>
    client.post<ApiImportResult | ApiReimportResult>(`/api/v1/api-imports/${byId(id)}/apply`, request),
};
