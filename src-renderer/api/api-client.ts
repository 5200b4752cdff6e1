import { ApiProblemError, NetworkError, isAbortError } from './api-errors.js';
import type { ConnectionMonitor } from '../connection/connection-monitor.js';
import type { ProblemDetails } from './types.js';

export type QueryValue = string | number | boolean | undefined | null;
export type QueryValues = Record<string, QueryValue>;

export interface RequestOptions {
  query?: QueryValues;
  signal?: AbortSignal;
  /** No bearer token, and a 401 does not end the session (sign-in itself). */
  anonymous?: boolean;
}

export interface DownloadedFile {
  blob: Blob;
  fileName: string;
}

export interface ApiClientOptions {
  getAccessToken: () => string | undefined;
  /** A request with the session's token was refused: the session is over. */
  onUnauthorized: (error: ApiProblemError) => void;
  connection: ConnectionMonitor;
  /** Defaults to the page's origin: the console is served by the Control Panel it talks to. */
  baseUrl?: string;
  /** How long a GET keeps retrying while the Control Panel is unreachable. */
  offlineRetryMs?: number;
}

const RETRYABLE_STATUS = new Set([502, 503, 504]);
const FIRST_RETRY_DELAY_MS = 250;
const MAX_RETRY_DELAY_MS = 2_000;

function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function fileNameOf(response: Response, fallback: string): string {
  const disposition = response.headers.get('Content-Disposition') ?? '';
  const match = /filename="?([^";]+)"?/i.exec(disposition);
  return match?.[1] ?? fallback;
}

/** The one way the console talks to the management API: bearer token, JSON, problem details, reconnects. */
export class ApiClient {
  readonly #options: ApiClientOptions;

  constructor(options: ApiClientOptions) {
    this.#options = options;
  }

  get<T>(path: string, options: RequestOptions = {}): Promise<T> {
    return this.#json<T>('GET', path, undefined, options);
  }

  post<T>(path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
    return this.#json<T>('POST', path, body, options);
  }

  put<T>(path: string, body: unknown, options: RequestOptions = {}): Promise<T> {
    return this.#json<T>('PUT', path, body, options);
  }

  patch<T>(path: string, body: unknown, options: RequestOptions = {}): Promise<T> {
    return this.#json<T>('PATCH', path, body, options);
  }

  delete(path: string, options: RequestOptions = {}): Promise<void> {
    return this.#json<undefined>('DELETE', path, undefined, options);
  }

  /** A file answer (exports), read whole; the name comes from Content-Disposition. */
  async download(path: string, fallbackName: string, options: RequestOptions = {}): Promise<DownloadedFile> {
    const response = await this.#send('GET', path, undefined, options);
    return { blob: await response.blob(), fileName: fileNameOf(response, fallbackName) };
  }

  /** The session's bearer token, for requests fetch cannot make (XMLHttpRequest, for upload progress). */
  accessToken(): string | undefined {
    return this.#options.getAccessToken();
  }

  /** The error of a failed request made outside this client; a 401 ends the session as it does here. */
  problemError(status: number, problem: ProblemDetails): ApiProblemError {
    const error = new ApiProblemError(status, problem);
    if (status === 401) this.#options.onUnauthorized(error);
    return error;
  }

  url(path: string, query: QueryValues = {}): string {
    const url = new URL(path, this.#options.baseUrl ?? window.location.origin);
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined && value !== null && value !== '') url.searchParams.set(name, String(value));
    }
    return url.toString();
  }

  async #json<T>(method: string, path: string, body: unknown, options: RequestOptions): Promise<T> {
    const response = await this.#send(method, path, body, options);
    if (response.status === 204 || response.headers.get('Content-Length') === '0') return undefined as T;
    return (await response.json()) as T;
  }

  async #send(method: string, path: string, body: unknown, options: RequestOptions): Promise<Response> {
    const headers: Record<string, string> = { Accept: 'application/json, application/problem+json' };
    const token = options.anonymous ? undefined : this.#options.getAccessToken();
    if (token) headers.Authorization = `Bearer ${token}`;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const init: RequestInit = {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: options.signal,
      cache: 'no-store',
    };
    const url = this.url(path, options.query);
    const response =
      method === 'GET' ? await this.#fetchRetrying(url, init) : await this.#fetchOnce(url, init);
    if (response.ok) return response;
    const error = new ApiProblemError(response.status, await this.#problemOf(response));
    if (response.status === 401 && !options.anonymous) this.#options.onUnauthorized(error);
    throw error;
  }

  async #fetchOnce(url: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(url, init);
    } catch (error) {
      if (isAbortError(error)) throw error;
      throw new NetworkError(error);
    }
  }

  /** GETs are safe to repeat: while the Control Panel restarts they retry, and the shell shows "reconnecting…". */
  async #fetchRetrying(url: string, init: RequestInit): Promise<Response> {
    const signal = init.signal ?? undefined;
    const deadline = Date.now() + (this.#options.offlineRetryMs ?? 60_000);
    let delay = FIRST_RETRY_DELAY_MS;
    let endRetry: (() => void) | undefined;
    try {
      for (;;) {
        let failure: unknown;
        try {
          const response = await fetch(url, init);
          if (!RETRYABLE_STATUS.has(response.status)) return response;
          failure = new ApiProblemError(response.status, await this.#problemOf(response));
        } catch (error) {
          if (isAbortError(error)) throw error;
          failure = new NetworkError(error);
        }
        if (Date.now() + delay > deadline) throw failure;
        endRetry ??= this.#options.connection.beginRetry();
        await wait(delay, signal);
        delay = Math.min(delay * 2, MAX_RETRY_DELAY_MS);
      }
    } finally {
      endRetry?.();
    }
  }

  async #problemOf(response: Response): Promise<ProblemDetails> {
    const type = response.headers.get('Content-Type') ?? '';
    if (type.includes('json')) {
      try {
        return (await response.json()) as ProblemDetails;
      } catch (error) {
        return { title: response.statusText || `HTTP ${response.status}`, detail: String(error) };
      }
    }
    return { title: response.statusText || `HTTP ${response.status}` };
  }
}
