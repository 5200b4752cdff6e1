import type { ApiClient, DownloadedFile } from './api-client.js';
import type { ApiDefinition, ApiImportResult, ApiReimportResult, ApiSummary, ModifyApi } from './types.js';
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
  import: (
    client: ApiClient,
    file: File,
    { agentGroupId, name }: { agentGroupId?: string; name?: string },
    options: DocumentUploadOptions = {},
  ) =>
    uploadWithProgress<ApiImportResult>(client, {
      method: 'POST',
      path: '/api/v1/apis',
      query: { agentGroupId, name },
      body: file,
      contentType: documentContentType(file),
      ...options,
    }),
  reimport: (client: ApiClient, id: string, file: File, options: DocumentUploadOptions = {}) =>
    uploadWithProgress<ApiReimportResult>(client, {
      method: 'PUT',
      path: `/api/v1/apis/${byId(id)}/document`,
      body: file,
      contentType: documentContentType(file),
      ...options,
    }),
  downloadDocument: (client: ApiClient, api: Pick<ApiSummary, 'id' | 'name'>): Promise<DownloadedFile> =>
    client.download(`/api/v1/apis/${byId(api.id)}/document`, `${api.name}.yaml`),
};
