import type { AuditEntryTable, AuditResourceTable } from '../../storage/schema.js';
import { DatabaseDamagedError } from '../../storage/storage-errors.js';
import { DAY_MS } from '../../storage/time-buckets.js';
import type { AuditEntry, NewAuditEntry } from '../audit-entry.js';
import { contentHash } from '../content-hash.js';
import type { NormalizedEntry } from '../normalize-entry.js';
import type { EntryFields } from '../import-batch.js';
import { OWN_TENANT } from '../audit-tenant.js';

/** Every column of an `audit_entries` row, in the order the writers that copy whole rows bind them. */
export const AUDIT_ENTRY_COLUMNS = [
  'id',
  'tenant',
  'time_ms',
  'action_key',
  'user_key',
  'category',
  'agent_group_id',
  'content_hash',
  'entry',
  'recorded_at',
  'instance',
  'chain_seq',
  'chain_hash',
] as const satisfies readonly (keyof AuditEntryTable)[];

/** An entry as stored, with the names as spelled (the counts keep the first spelling for the facets). */
export interface EntryRow {
  row: AuditEntryTable;
  actionName: string;
  userName: string;
}

/** Case-insensitive matching of names: the key is the lower-cased name. */
export function nameKey(name: string): string {
  return textColumn(name.toLowerCase());
}

/**
 * A value for a text column: PostgreSQL text cannot hold NUL, so it becomes U+FFFD (on both engines). The entry's
 * JSON keeps the original (JSON escapes it).
 */
export function textColumn(value: string): string {
  return value.includes('\u0000') ? value.replaceAll('\u0000', '\uFFFD') : value;
}

export function dayOf(timeMs: number): number {
  return Math.floor(timeMs / DAY_MS);
}

/** The content digest that makes imports idempotent, as 16 hex digits. */
export function contentKey(entry: NewAuditEntry, timeMs: number): string {
  const { hi, lo } = contentHash(entry, timeMs);
  return hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');
}

/**
 * The fields of a normalized entry. The entry's JSON is kept without its id, fields in the order `normalizeEntry`
 * gives them; reading puts the id in front (`entryOfRow`), so the API shows the same field order as ever.
 */
export function entryFields({ entry, timeMs }: NormalizedEntry, hash: string): EntryFields {
  return {
    timeMs,
    hash,
    json: JSON.stringify(entry),
    actionName: entry.actionName,
    userName: entry.userName,
    actionKey: nameKey(entry.actionName),
    userKey: nameKey(entry.userName),
    category: entry.category,
    agentGroupId: entry.category === 'agent' && entry.agentGroup ? textColumn(entry.agentGroup.id) : null,
    instance: entry.instance === undefined ? null : textColumn(entry.instance),
  };
}

/** The row of an entry's fields, under its id. */
export function rowOf(
  id: number,
  fields: EntryFields,
  recordedAt: number,
  tenant: string = OWN_TENANT,
): AuditEntryTable {
  return {
    id,
    tenant,
    time_ms: fields.timeMs,
    action_key: fields.actionKey,
    user_key: fields.userKey,
    category: fields.category,
    agent_group_id: fields.agentGroupId,
    content_hash: fields.hash,
    entry: fields.json,
    recorded_at: recordedAt,
    instance: fields.instance,
    // Given by `chainRows` in the transaction that inserts the row.
    chain_seq: null,
    chain_hash: null,
  };
}

/** The row of a normalized entry (see `entryFields`). */
export function toEntryRow(
  id: number,
  normalized: NormalizedEntry,
  hash: string,
  recordedAt: number,
  tenant: string = OWN_TENANT,
): EntryRow {
  return {
    row: rowOf(id, entryFields(normalized, hash), recordedAt, tenant),
    actionName: normalized.entry.actionName,
    userName: normalized.entry.userName,
  };
}

/** The entry of a row; another tenant's entry names its tenant (Gatehouse's own keep the shape they always had). */
export function entryOfRow(id: number, json: string, tenant: string = OWN_TENANT): AuditEntry {
  try {
    const entry = JSON.parse(`{"id":${id},${json.slice(1)}`) as AuditEntry;
    if (tenant !== OWN_TENANT) entry.tenant = tenant;
    return entry;
  } catch (error) {
    throw damagedEntry(id, error);
  }
}

/**
 * The JSON text `entryOfRow`'s entry serializes to, spliced from the stored text rather than parsed and serialized
 * again (the stored text is `JSON.stringify`'s, so the two agree byte for byte): the id in front, another tenant's
 * name at the end. `valid` is the engine's verdict on the stored text where it gave one (SQLite's `json_valid`):
 * text that is not JSON is a damaged file, refused as `entryOfRow` refuses it rather than sent on.
 */
export function entryJsonOfRow(
  id: number,
  json: string,
  tenant: string = OWN_TENANT,
  valid?: number,
): string {
  if (valid === 0 || json[0] !== '{' || json.at(-1) !== '}') throw damagedEntry(id);
  const withId = json === '{}' ? `{"id":${id}}` : `{"id":${id},${json.slice(1)}`;
  return tenant === OWN_TENANT ? withId : `${withId.slice(0, -1)},"tenant":${JSON.stringify(tenant)}}`;
}

/** Only a damaged file stores text that is not the JSON written. */
function damagedEntry(id: number, cause?: unknown): DatabaseDamagedError {
  return new DatabaseDamagedError(
    `Audit entry ${id} cannot be read: the database holding it is damaged. Restore it from the latest backup.`,
    cause === undefined ? undefined : { cause },
  );
}

/**
 * The distinct resources of an entry: what the `resource` filter finds it by, and, for a configuration entry, what
 * retention keeps it for while one of them lives (retention and history removal read only configuration entries').
 */
export function resourcesToKeep(entry: NewAuditEntry): Omit<AuditResourceTable, 'entry_id'>[] {
  if (entry.resources.length === 0) return [];
  const seen = new Map<string, Omit<AuditResourceTable, 'entry_id'>>();
  for (const { type, id } of entry.resources) {
    seen.set(`${type}\u0000${id}`, { resource_type: textColumn(type), resource_id: textColumn(id) });
  }
  return [...seen.values()];
}
