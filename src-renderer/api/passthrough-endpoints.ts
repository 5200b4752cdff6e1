import type { ApiClient } from './api-client.js';
import type {
  CreatedPassthrough,
  CreatePassthrough,
  Passthrough,
  PassthroughPreview,
  PassthroughPreviewRequest,
  ReplacePassthrough,
} from './types.js';

type Signal = { signal?: AbortSignal };

const pathOf = (apiId: string) => `/api/v1/apis/${encodeURIComponent(apiId)}/passthrough`;

export const passthroughApi = {
  get: (client: ApiClient, apiId: string, { signal }: Signal = {}) =>
    client.get<Passthrough>(pathOf(apiId), { signal }),
  /** Creates (and deploys) the configuration, with the access policy when the body has one. */
  create: (client: ApiClient, apiId: string, request: CreatePassthrough) =>
    client.post<CreatedPassthrough>(pathOf(apiId), request),
  replace: (client: ApiClient, apiId: string, request: ReplacePassthrough) =>
    client.put<Passthrough>(pathOf(apiId), request),
  remove: (client: ApiClient, apiId: string) => client.delete(pathOf(apiId)),
  /** What the gateway would forward for a sample request; nothing is saved or audited. */
  preview: (client: ApiClient, apiId: string, request: PassthroughPreviewRequest, { signal }: Signal = {}) =>
    client.post<PassthroughPreview>(`${pathOf(apiId)}/preview`, request, { signal }),
};
