import type { ApiClient } from './api-client.js';
import type { MonitoringOutcome } from './types.js';

/** Methods "Try it" can send. */
export const TRY_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
export type TryMethod = (typeof TRY_METHODS)[number];

export interface HeaderPair {
  name: string;
  value: string;
}

/** `PassthroughTryRequest` */
export interface TryItRequest {
  agentGroupId?: string;
  method: TryMethod;
  /** Path and query under the API base path, or the full path. */
  path: string;
  headers?: HeaderPair[];
  body?: string;
  timeoutMs?: number;
}

/** `PassthroughTryResult`: the gateway's answer to one request sent from the editor. */
export interface TryItResult {
  agentGroup: { id: string; name: string };
  request: { method: string; url: string; traceparent: string };
  /** As the gateway built it, secrets as ********; null when the request was not forwarded. */
  targetUrl: string | null;
  /** Null when the monitoring record did not arrive in time. */
  outcome: MonitoringOutcome | null;
  reason?: string;
  operation?: string;
  status: number;
  statusText: string;
  headers: HeaderPair[];
  body: string;
  bodyEncoding: 'text' | 'base64';
  bodyBytes: number;
  bodyTruncated: boolean;
  durationMs: number;
}

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
