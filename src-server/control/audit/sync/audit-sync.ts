import { setTimeout as sleepFor } from 'node:timers/promises';
import type { AuditStore } from '../../../core/audit/audit-entry.js';
import type { AuditSourceStore, SyncState } from '../../../core/audit/sources/audit-source-store.js';
import type { AuditSyncSummary } from '../../../core/contracts/audit-source-schemas.js';
import { ErrorCode } from '../../../core/contracts/error-codes.js';
import { GatehouseError } from '../../../core/errors/gatehouse-error.js';
import { backoffMs, retryAfterMs } from './backoff.js';
import { readAuditPage, type AuditPageRead } from './read-audit-page.js';
import { SourceToken } from './source-token.js';

export const SYNC_PAGE_SIZE = 200;
/** The next sync asks from this long before the last one's end: entries stamped late are still found. */
export const SYNC_OVERLAP_MS = 10 * 60_000;
const REQUEST_TIMEOUT_MS = 60_000;

export interface SyncOptions {
  sources: AuditSourceStore;
  auditStore: AuditStore;
  now?: () => number;
  /** Stops the walk; what was read is kept and the next sync resumes. */
  signal?: AbortSignal;
  onProgress?: (summary: AuditSyncSummary) => void;
  /** Attempts per request before the sync stops (resumable). */
  maxAttempts?: number;
  backoffBaseMs?: number;
  backoffCapMs?: number;
  fetch?: typeof fetch;
}

export class SyncFailedError extends GatehouseError {
  override name = 'SyncFailedError';
  constructor(message: string) {
    super(ErrorCode.GH_ERR_AUDIT_SYNC_FAILED, message);
  }
}

/** A failure worth trying again after a pause (429, 5xx, a network failure or a timeout). */
class RetryableError extends GatehouseError {
  constructor(
    message: string,
    readonly waitMs?: number,
  ) {
    super(ErrorCode.GH_ERR_AUDIT_SYNC_FAILED, message);
  }
}

function pageUrl(baseUrl: string, page: number, walk: NonNullable<SyncState['walk']>): URL {
  const url = new URL(baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/api/v1/audit-log`;
  url.search = '';
  url.searchParams.set('PageNumber', String(page));
  url.searchParams.set('PageSize', String(SYNC_PAGE_SIZE));
  if (walk.startMs !== undefined)
    url.searchParams.set('startDateTimeUtc', new Date(walk.startMs).toISOString());
  url.searchParams.set('endDateTimeUtc', new Date(walk.endMs).toISOString());
  return url;
}

/**
 * Pulls a tenant's trail from its `GET /api/v1/audit-log` into the tenant's trail here, incrementally: the walk
 * asks for the time range from the last sync's end (less an overlap) to now, pinned for the whole walk so pages do
 * not shift while the tenant records more, and de-duplicates by content. After each page the walk's position is
 * saved: a sync that stops (interrupted, or out of retries) is resumed by the next one. 429 waits `Retry-After`;
 * 5xx and network failures back off exponentially.
 */
export async function syncAuditSource(name: string, options: SyncOptions): Promise<AuditSyncSummary> {
  const now = options.now ?? Date.now;
  const loaded = await options.sources.withSecret(name);
  if (!loaded) throw new SyncFailedError(`No audit source is named ${name}.`);
  const { source } = loaded;
  const state: SyncState = loaded.state;
  const started = now();
  const walk = state.walk ?? {
    ...(state.syncedUntilMs !== undefined ? { startMs: state.syncedUntilMs - SYNC_OVERLAP_MS } : {}),
    endMs: started,
    nextPage: 1,
  };
  const summary: AuditSyncSummary = {
    status: 'running',
    startedAt: new Date(started).toISOString(),
    pages: 0,
    read: 0,
    added: 0,
    duplicates: 0,
    skipped: 0,
    retries: 0,
    seconds: 0,
    resumed: state.walk !== undefined,
  };
  const token = new SourceToken(source, now);
  const save = (next: SyncState) => options.sources.saveState(name, next);
  const stamp = () => {
    summary.seconds = Math.round((now() - started) / 100) / 10;
  };
  await save({ ...state, walk, last: { ...summary } });
  const read = (pageNumber: number) => {
    const reading = readPage(token, pageUrl(source.baseUrl, pageNumber, walk), summary, options);
    // Awaited on the next turn of the walk; handled here so a failure while a page is stored is not "unhandled".
    reading.catch(() => undefined);
    return reading;
  };
  try {
    let reading = read(walk.nextPage);
    for (;;) {
      options.signal?.throwIfAborted();
      const page = await reading;
      const last =
        page.itemCount < SYNC_PAGE_SIZE ||
        (page.totalCount !== undefined && walk.nextPage * SYNC_PAGE_SIZE >= page.totalCount);
      // The next page is fetched while this one is stored: the walk's network time hides behind the import's.
      // The position saved below is still this page's, so a stop resumes at the first page not stored.
      if (!last) reading = read(walk.nextPage + 1);
      const result = await options.auditStore.importEntries(page.entries, undefined, {
        tenant: source.tenant,
      });
      summary.pages++;
      summary.read += page.itemCount;
      summary.added += result.added;
      summary.duplicates += result.duplicates;
      summary.skipped += page.skippedCount;
      walk.nextPage++;
      stamp();
      if (last) {
        summary.status = 'completed';
        summary.finishedAt = new Date(now()).toISOString();
        await save({ syncedUntilMs: walk.endMs, last: { ...summary } });
        options.onProgress?.({ ...summary });
        return summary;
      }
      await save({ ...state, walk, last: { ...summary } });
      options.onProgress?.({ ...summary });
    }
  } catch (error) {
    stamp();
    summary.status = 'failed';
    summary.finishedAt = new Date(now()).toISOString();
    summary.error = options.signal?.aborted
      ? 'Interrupted; the next sync resumes where this one stopped.'
      : `${(error as Error).message} The next sync resumes where this one stopped.`;
    await save({ ...state, walk, last: { ...summary } });
    options.onProgress?.({ ...summary });
    return summary;
  }
}

async function readPage(
  token: SourceToken,
  url: URL,
  summary: AuditSyncSummary,
  options: SyncOptions,
): Promise<AuditPageRead> {
  const maxAttempts = options.maxAttempts ?? 6;
  const base = options.backoffBaseMs ?? 500;
  const cap = options.backoffCapMs ?? 60_000;
  const doFetch = options.fetch ?? fetch;
  let renewed = false;
  for (let attempt = 0; ; attempt++) {
    try {
      const signal = options.signal
        ? AbortSignal.any([options.signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)])
        : AbortSignal.timeout(REQUEST_TIMEOUT_MS);
      const response = await doFetch(url, {
        headers: { Authorization: `Bearer ${await token.get(options.signal)}`, Accept: 'application/json' },
        signal,
      });
      if (response.status === 401 && !renewed && token.renew()) {
        renewed = true;
        attempt--;
        await response.body?.cancel();
        continue;
      }
      if (response.status === 429 || response.status >= 500) {
        await response.body?.cancel();
        throw new RetryableError(
          `${url.origin} answered ${response.status} to page ${url.searchParams.get('PageNumber')}.`,
          response.status === 429
            ? retryAfterMs(response.headers.get('retry-after'), Date.now(), cap)
            : undefined,
        );
      }
      if (!response.ok) {
        const text = (await response.text()).slice(0, 300);
        throw new SyncFailedError(
          `${url.origin} refused the audit log request (${response.status})${text ? `: ${text}` : ''}.`,
        );
      }
      return readAuditPage(await response.json());
    } catch (error) {
      if (options.signal?.aborted) throw error;
      const retryable =
        error instanceof RetryableError ||
        (error instanceof TypeError && !(error instanceof SyntaxError)) ||
        (error as Error).name === 'TimeoutError';
      if (!retryable || attempt + 1 >= maxAttempts) {
        if (retryable)
          throw new SyncFailedError(`${(error as Error).message} Gave up after ${attempt + 1} attempts.`);
        throw error;
      }
      summary.retries++;
      const wait =
        (error instanceof RetryableError ? error.waitMs : undefined) ?? backoffMs(attempt, base, cap);
      await sleepFor(wait, undefined, options.signal ? { signal: options.signal } : undefined);
    }
  }
}
