import type { ApiClient, QueryValues } from './api-client.js';
import { NetworkError } from './api-errors.js';
import type { ProblemDetails } from './types.js';

/** Bytes sent so far of an upload; `total` is the body's size. */
export interface UploadProgress {
  loaded: number;
  total: number;
}

export interface UploadRequest {
  method: 'POST' | 'PUT';
  path: string;
  query?: QueryValues;
  body: Blob;
  contentType: string;
  signal?: AbortSignal;
  onProgress?: (progress: UploadProgress) => void;
}

function problemOf(xhr: XMLHttpRequest): ProblemDetails {
  const fallback = { title: xhr.statusText || `HTTP ${xhr.status}` };
  if (!(xhr.getResponseHeader('Content-Type') ?? '').includes('json')) return fallback;
  try {
    return JSON.parse(xhr.responseText) as ProblemDetails;
  } catch (error) {
    return { ...fallback, detail: String(error) };
  }
}

/**
 * Sends a file as the request body with XMLHttpRequest, whose upload events report progress (fetch has none
 * for request bodies). Not retried: a POST is not safe to repeat.
 */
export function uploadWithProgress<T>(client: ApiClient, request: UploadRequest): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const { signal } = request;
    if (signal?.aborted) {
      reject(new DOMException('The upload was cancelled.', 'AbortError'));
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open(request.method, client.url(request.path, request.query));
    xhr.setRequestHeader('Accept', 'application/json, application/problem+json');
    xhr.setRequestHeader('Content-Type', request.contentType);
    const token = client.accessToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);

    const onAbort = () => xhr.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const settle = () => signal?.removeEventListener('abort', onAbort);

    xhr.upload.addEventListener('progress', (event) => {
      request.onProgress?.({
        loaded: event.loaded,
        total: event.lengthComputable ? event.total : request.body.size,
      });
    });
    xhr.addEventListener('load', () => {
      settle();
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          resolve((xhr.responseText ? JSON.parse(xhr.responseText) : undefined) as T);
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
        return;
      }
      reject(client.problemError(xhr.status, problemOf(xhr)));
    });
    xhr.addEventListener('error', () => {
      settle();
      reject(new NetworkError(new Error('The upload could not be sent.')));
    });
    xhr.addEventListener('abort', () => {
      settle();
      reject(new DOMException('The upload was cancelled.', 'AbortError'));
    });
    xhr.send(request.body);
  });
}
