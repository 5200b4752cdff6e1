import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { ErrorCode, type ErrorCodeWithStatus } from '../../../core/contracts/error-codes.js';
import { validationProblem, type HttpProblem } from '../../../core/http/problem.js';
import type { AuditCursor, AuditFilter } from '../../../core/audit/audit-entry.js';
import { nameKey } from '../../../core/audit/sql/audit-rows.js';
import { searchWords } from '../../../core/audit/search-terms.js';

/** How long a walk may pause between two pages. */
export const CONTINUATION_TOKEN_LIFETIME_MS = 24 * 3_600_000;

const VERSION = 'c1';
const MAX_TOKEN_LENGTH = 512;
const SIGNATURE_BYTES = 16;

/** Where a walk goes on: after `cursor`, in pages of `pageSize`, the next one being `pageNumber`. */
export interface Continuation {
  cursor: AuditCursor;
  pageSize: number;
  pageNumber: number;
  /** Digest of the filters the walk was started with (`filterDigest`). */
  filter: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

/**
 * The digest a token carries of the filters it was issued for, over their meaning rather than their spelling
 * (names by their case-insensitive keys), so `userName=Bob` continues a walk begun with `username=bob`.
 */
export function filterDigest(filter: AuditFilter): string {
  const canonical = [
    filter.tenant ?? null,
    filter.startMs ?? null,
    filter.endMs ?? null,
    filter.actionName === undefined ? null : nameKey(filter.actionName),
    filter.userName === undefined ? null : nameKey(filter.userName),
    filter.instance ?? null,
    filter.resource === undefined ? null : [filter.resource.type, filter.resource.id],
    filter.search === undefined ? null : searchWords(filter.search),
  ];
  return createHash('sha256').update(JSON.stringify(canonical)).digest('base64url').slice(0, 22);
}

function problem(code: ErrorCodeWithStatus<400>, message: string): HttpProblem {
  return validationProblem({ continuationToken: [message] }, message, code);
}

const isCount = (value: unknown, min: number): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= min;

/**
 * Issues and reads continuation tokens: `c1.<payload>.<signature>`, the payload base64url JSON, the signature a
 * truncated HMAC-SHA-256 under a key kept in the database (so every instance on one database reads the tokens of
 * the others). Opaque to clients: only its validity is promised.
 */
export class ContinuationTokens {
  constructor(private readonly key: Buffer) {}

  issue(continuation: Continuation): string {
    const { cursor, pageSize, pageNumber, filter, expiresAt } = continuation;
    const payload = Buffer.from(
      JSON.stringify([cursor.timeMs, cursor.id, pageSize, pageNumber, filter, expiresAt]),
    ).toString('base64url');
    return `${VERSION}.${payload}.${this.sign(payload)}`;
  }

  /** The continuation of a token, or a 400 problem saying what is wrong with it. Never throws anything else. */
  read(token: string, now: number): Continuation {
    const parts = token.length <= MAX_TOKEN_LENGTH ? token.split('.') : [];
    const [version, payload, signature] = parts;
    if (parts.length !== 3 || version !== VERSION || !payload || !signature)
      throw problem(ErrorCode.GH_ERR_CONTINUATION_TOKEN_INVALID, 'The continuation token is malformed.');
    const expected = Buffer.from(this.sign(payload), 'base64url');
    const given = Buffer.from(signature, 'base64url');
    if (
      given.length !== expected.length ||
      !timingSafeEqual(given, expected) ||
      given.toString('base64url') !== signature
    )
      throw problem(
        ErrorCode.GH_ERR_CONTINUATION_TOKEN_INVALID,
        'The continuation token was not issued by this Gatehouse or was altered.',
      );
    const continuation = decodePayload(payload);
    if (!continuation)
      throw problem(ErrorCode.GH_ERR_CONTINUATION_TOKEN_INVALID, 'The continuation token is malformed.');
    if (continuation.expiresAt <= now)
      throw problem(
        ErrorCode.GH_ERR_CONTINUATION_TOKEN_EXPIRED,
        'The continuation token has expired: start the walk again from the first page.',
      );
    return continuation;
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.key)
      .update(`${VERSION}.${payload}`)
      .digest()
      .subarray(0, SIGNATURE_BYTES)
      .toString('base64url');
  }
}

function decodePayload(payload: string): Continuation | undefined {
  let fields: unknown;
  try {
    fields = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch (error) {
    // A signed payload is always JSON; this is only reached with a forged signature, which the caller reports.
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
  if (!Array.isArray(fields) || fields.length !== 6) return undefined;
  const [timeMs, id, pageSize, pageNumber, filter, expiresAt] = fields as unknown[];
  if (
    !isCount(timeMs, Number.MIN_SAFE_INTEGER) ||
    !isCount(id, Number.MIN_SAFE_INTEGER) ||
    !isCount(pageSize, 1) ||
    !isCount(pageNumber, 2) ||
    typeof filter !== 'string' ||
    !isCount(expiresAt, 0)
  )
    return undefined;
  return { cursor: { timeMs, id }, pageSize, pageNumber, filter, expiresAt };
}

/** Checks a token against the request that presents it: same filters, same page size, no page number. */
export function assertContinues(
  continuation: Continuation,
  request: { filter: AuditFilter; pageSize?: number; pageNumber?: number },
): void {
  if (request.pageNumber !== undefined)
    throw problem(
      ErrorCode.GH_ERR_CONTINUATION_TOKEN_MISMATCH,
      'Give PageNumber or continuationToken, not both: the token knows which page comes next.',
    );
  if (request.pageSize !== undefined && request.pageSize !== continuation.pageSize)
    throw problem(
      ErrorCode.GH_ERR_CONTINUATION_TOKEN_MISMATCH,
      `The continuation token pages by ${continuation.pageSize}: give the same PageSize or none.`,
    );
  if (filterDigest(request.filter) !== continuation.filter)
    throw problem(
      ErrorCode.GH_ERR_CONTINUATION_TOKEN_MISMATCH,
      'The continuation token was issued for other filters: repeat the filters of the page that gave it.',
    );
}
