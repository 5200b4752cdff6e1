import type { NewAuditEntry } from '../../../core/audit/audit-entry.js';
import { normalizeImportEntry } from '../import/normalize-import-entry.js';
import { ErrorCode } from '../../../core/contracts/error-codes.js';
import { GatehouseError } from '../../../core/errors/gatehouse-error.js';

/** One page of a tenant's `GET /api/v1/audit-log`, read whatever the envelope and the case of its names. */
export interface AuditPageRead {
  entries: NewAuditEntry[];
  /** Items of the page, valid or not (what decides whether it was the last page). */
  itemCount: number;
  /** Items that are not entries, with why (the first few). */
  skipped: { index: number; message: string }[];
  skippedCount: number;
  /** When the answer says (`totalCount`); the `{data}` shape does not. */
  totalCount?: number;
}

const ITEM_NAMES = [
  'id',
  'sourceId',
  'actionName',
  'action',
  'userName',
  'user',
  'timestamp',
  'timestampUtc',
  'parameters',
  'description',
  'resources',
  'agentGroup',
  'category',
  'statusCode',
] as const;
const BY_LOWER = new Map<string, string>(ITEM_NAMES.map((name) => [name.toLowerCase(), name]));
const MAX_LISTED = 20;

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The value of a member whatever the case of its name (`items`, `Items`, `ITEMS`). */
function member(object: Record<string, unknown>, name: string): unknown {
  if (Object.hasOwn(object, name)) return object[name];
  const lower = name.toLowerCase();
  for (const key of Object.keys(object)) if (key.toLowerCase() === lower) return object[key];
  return undefined;
}

/** An item with its known member names spelled as the normalizer reads them (`ActionName` → `actionName`). */
function canonicalItem(raw: unknown): unknown {
  if (!isObject(raw)) return raw;
  const item: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    const name = BY_LOWER.get(key.toLowerCase()) ?? key;
    if (!Object.hasOwn(item, name)) item[name] = value;
  }
  return item;
}

export class AuditPageShapeError extends GatehouseError {
  override name = 'AuditPageShapeError';
  constructor(message: string) {
    super(ErrorCode.GH_ERR_AUDIT_SYNC_FAILED, message);
  }
}

/**
 * A page as the platform has answered it: `{items, pageNumber, pageSize, totalCount}` (the seed's shape) or
 * `{data: [{action, user, timestampUtc, description, parameters}]}` (an older one, parameters as a JSON string),
 * member names in any case. Items that are not entries are counted and skipped; a body that is not a page throws.
 */
export function readAuditPage(body: unknown): AuditPageRead {
  if (!isObject(body)) throw new AuditPageShapeError('The answer is not a JSON object.');
  const items = member(body, 'items') ?? member(body, 'data');
  if (!Array.isArray(items)) throw new AuditPageShapeError('The answer has no "items" (or "data") array.');
  const total = member(body, 'totalCount');
  const read: AuditPageRead = { entries: [], itemCount: items.length, skipped: [], skippedCount: 0 };
  if (typeof total === 'number' && Number.isSafeInteger(total) && total >= 0) read.totalCount = total;
  items.forEach((raw, index) => {
    const result = normalizeImportEntry(canonicalItem(raw));
    if (result.ok) read.entries.push(result.entry);
    else {
      read.skippedCount++;
      if (read.skipped.length < MAX_LISTED) read.skipped.push({ index, message: result.message });
    }
  });
  return read;
}
