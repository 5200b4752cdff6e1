import { randomBytes } from 'node:crypto';
import { sharedUntilFailure } from '../../../core/async/shared-until-failure.js';
import type { AuditJsonSeekPage, AuditStore } from '../../../core/audit/audit-entry.js';
import { jsonText, type JsonText } from '../../../core/json/known-json.js';
import { KEY_NAMES, type KeyStore } from '../../../core/config-store/key-store.js';
import type { AuditLogPage } from '../../../core/contracts/audit-schemas.js';
import type { AuditQueryValues } from '../audit-query-spec.js';
import { toAuditFilter, AUDIT_PAGE_SIZE_DEFAULT } from '../audit-query-spec.js';
import {
  assertContinues,
  CONTINUATION_TOKEN_LIFETIME_MS,
  ContinuationTokens,
  filterDigest,
} from './continuation-token.js';

/** What the list endpoint pages with: the store, the token key (shared by the instances on the database), a clock. */
export interface AuditPaging {
  store: AuditStore;
  tokens: () => Promise<ContinuationTokens>;
  now: () => number;
}

/** The token key is read (or created) on the first page that needs one, then kept. */
export function auditPaging(store: AuditStore, keys: KeyStore, now: () => number): AuditPaging {
  return {
    store,
    now,
    // A failed read (the database away) is tried again by the next page.
    tokens: sharedUntilFailure(async () => {
      const key = await keys.loadOrCreate(KEY_NAMES.auditContinuation, () =>
        randomBytes(32).toString('base64'),
      );
      return new ContinuationTokens(Buffer.from(key, 'base64'));
    }),
  };
}

/** `AuditLogPage` as the list endpoint answers it: the entries as the JSON text the store read them as. */
export type AuditLogPageAnswer = Omit<AuditLogPage, 'items'> & { items: JsonText };

/**
 * One page of `GET /api/v1/audit-log`: by number (offset into the list as it is now), or after the position a
 * continuation token holds. Either way, the answer carries a token for the page after it when entries follow.
 * The entries are written from the text the store holds them as, never parsed: over a page of 200 entries,
 * parsing and serializing them again took ~0.5 ms of the server's CPU.
 */
export async function auditLogPage(
  paging: AuditPaging,
  query: AuditQueryValues,
): Promise<AuditLogPageAnswer> {
  const filter = toAuditFilter(query);
  const tokens = await paging.tokens();
  const now = paging.now();
  let pageNumber: number;
  let pageSize: number;
  let page: AuditJsonSeekPage;
  if (query.continuationToken !== undefined) {
    const continuation = tokens.read(query.continuationToken, now);
    assertContinues(continuation, { filter, pageSize: query.PageSize, pageNumber: query.PageNumber });
    pageNumber = continuation.pageNumber;
    pageSize = continuation.pageSize;
    page = await paging.store.seekJson(filter, pageSize, continuation.cursor);
  } else {
    pageNumber = query.PageNumber ?? 1;
    pageSize = query.PageSize ?? AUDIT_PAGE_SIZE_DEFAULT;
    page = await paging.store.queryJson({ ...filter, pageNumber, pageSize });
    if (page.last && (pageNumber - 1) * pageSize + page.items.length < page.totalCount) page.next = page.last;
  }
  const body: AuditLogPageAnswer = {
    items: jsonText(`[${page.items.join(',')}]`),
    pageNumber,
    pageSize,
    totalCount: page.totalCount,
  };
  if (page.next)
    body.continuationToken = tokens.issue({
      cursor: page.next,
      pageSize,
      pageNumber: pageNumber + 1,
      filter: filterDigest(filter),
      expiresAt: now + CONTINUATION_TOKEN_LIFETIME_MS,
    });
  return body;
}
