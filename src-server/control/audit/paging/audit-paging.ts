import { randomBytes } from 'node:crypto';
import type { AuditSeekPage, AuditStore } from '../../../core/audit/audit-entry.js';
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
  let tokens: Promise<ContinuationTokens> | undefined;
  return {
    store,
    now,
    tokens: () => {
      tokens ??= keys
        .loadOrCreate(KEY_NAMES.auditContinuation, () => randomBytes(32).toString('base64'))
        .then((key) => new ContinuationTokens(Buffer.from(key, 'base64')));
      // A failed read (the database away) is tried again by the next page.
      tokens.catch(() => {
        tokens = undefined;
      });
      return tokens;
    },
  };
}

/**
 * One page of `GET /api/v1/audit-log`: by number (offset into the list as it is now), or after the position a
 * continuation token holds. Either way, the answer carries a token for the page after it when entries follow.
 */
export async function auditLogPage(paging: AuditPaging, query: AuditQueryValues): Promise<AuditLogPage> {
  const filter = toAuditFilter(query);
  const tokens = await paging.tokens();
  const now = paging.now();
  let pageNumber: number;
  let pageSize: number;
  let page: AuditSeekPage;
  if (query.continuationToken !== undefined) {
    const continuation = tokens.read(query.continuationToken, now);
    assertContinues(continuation, { filter, pageSize: query.PageSize, pageNumber: query.PageNumber });
    pageNumber = continuation.pageNumber;
    pageSize = continuation.pageSize;
    page = await paging.store.seek(filter, pageSize, continuation.cursor);
  } else {
    pageNumber = query.PageNumber ?? 1;
    pageSize = query.PageSize ?? AUDIT_PAGE_SIZE_DEFAULT;
    page = await paging.store.query({ ...filter, pageNumber, pageSize });
    const last = page.items.at(-1);
    if (last && (pageNumber - 1) * pageSize + page.items.length < page.totalCount)
      page.next = { timeMs: Date.parse(last.timestamp), id: last.id };
  }
  const body: AuditLogPage = { items: page.items, pageNumber, pageSize, totalCount: page.totalCount };
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
