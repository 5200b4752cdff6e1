import type { ApiClient } from './api-client.js';
import type { TryItRequest, TryItResult } from './types.js';

export const tryItApi = {
  send: (
    client: ApiClient,
    apiId: string,
    request: TryItRequest,
    { signal }: { signal?: AbortSignal } = {},
  ) =>
    client.post<TryItResult>(`/api/v1/apis/${encodeURIComponent(apiId)}/passthrough/try`, request, {
      signal,
    }),
};
