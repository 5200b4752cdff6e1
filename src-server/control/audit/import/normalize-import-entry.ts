import { isCanonicalUtc, parseUtcDateTime } from '../../../core/http/query-params.js';
import type { AuditCategory, AuditResource, NewAuditEntry } from '../../../core/audit/audit-entry.js';
import { AUDIT_CATEGORIES } from '../../../core/contracts/audit-schemas.js';

const CATEGORIES: readonly string[] = AUDIT_CATEGORIES;

export type NormalizeResult = { ok: true; entry: NewAuditEntry } | { ok: false; message: string };

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function parametersOf(raw: unknown): Record<string, unknown> | string {
  if (raw === undefined || raw === null || raw === '') return {};
  if (isObject(raw)) return raw;
  if (typeof raw === 'string') {
    try {
      const parsed: unknown = JSON.parse(raw);
      return isObject(parsed) ? parsed : { value: parsed };
    } catch {
      return 'parameters is a string that is not JSON';
    }
  }
  return 'parameters must be a JSON object or a JSON string';
}

function resourcesOf(raw: unknown): AuditResource[] {
  if (!Array.isArray(raw)) return [];
  return raw
    .filter(isObject)
    .filter((r) => typeof r.type === 'string' && (typeof r.id === 'string' || typeof r.id === 'number'))
    .map((r) => ({
      type: String(r.type),
      id: String(r.id),
      ...(typeof r.name === 'string' ? { name: r.name } : {}),
    }));
}

/**
 * The id the record had at its source: `sourceId` when the file is an export of entries that were themselves
 * imported (they keep their first source's id), else the record's `id`. Only integers are ids; anything else is
 * left out rather than refusing the record.
 */
function sourceIdOf(raw: Record<string, unknown>): { sourceId?: number } {
  const id = raw.sourceId ?? raw.id;
  return Number.isSafeInteger(id) ? { sourceId: id as number } : {};
}

/**
 * One imported record → an audit entry. Accepts the endpoint's own item shape (`actionName`, `userName`,
 * `timestamp`, `parameters`) and the shape some platform versions return (`action`, `user`, `timestampUtc`,
 * `description`, `parameters` as a JSON string).
 */
export function normalizeImportEntry(raw: unknown): NormalizeResult {
  if (!isObject(raw)) return { ok: false, message: 'an entry must be a JSON object' };
  const actionName = raw.actionName ?? raw.action;
  const userName = raw.userName ?? raw.user;
  const timestampText = raw.timestamp ?? raw.timestampUtc;
  if (typeof actionName !== 'string' || actionName.trim() === '')
    return { ok: false, message: 'actionName (or action) is missing' };
  if (typeof userName !== 'string') return { ok: false, message: 'userName (or user) is missing' };
  if (typeof timestampText !== 'string')
    return { ok: false, message: 'timestamp (or timestampUtc) is missing' };
  const timestampMs = parseUtcDateTime(timestampText);
  if (timestampMs === undefined)
    return { ok: false, message: `timestamp '${timestampText.slice(0, 40)}' is not an ISO 8601 date-time` };
  const parameters = parametersOf(raw.parameters);
  if (typeof parameters === 'string') return { ok: false, message: parameters };
  const category =
    typeof raw.category === 'string' && CATEGORIES.includes(raw.category)
      ? (raw.category as AuditCategory)
      : /^agents?\./i.test(actionName)
        ? 'agent'
        : 'general';
  const agentGroup =
    isObject(raw.agentGroup) && typeof raw.agentGroup.id === 'string'
      ? {
          id: raw.agentGroup.id,
          name: typeof raw.agentGroup.name === 'string' ? raw.agentGroup.name : raw.agentGroup.id,
        }
      : undefined;
  const entry: NewAuditEntry = {
    actionName: actionName.trim(),
    userName,
    timestamp: isCanonicalUtc(timestampText) ? timestampText : new Date(timestampMs).toISOString(),
    parameters,
    resources: resourcesOf(raw.resources),
    category,
    ...(agentGroup ? { agentGroup } : {}),
    ...(typeof raw.statusCode === 'number' && Number.isInteger(raw.statusCode)
      ? { statusCode: raw.statusCode }
      : {}),
    ...(typeof raw.description === 'string' && raw.description !== ''
      ? { description: raw.description }
      : {}),
    // A team's Gatehouse names the instance that recorded an entry; an export or a sync keeps it.
    ...(typeof raw.instance === 'string' && raw.instance.trim() !== '' ? { instance: raw.instance } : {}),
    ...sourceIdOf(raw),
  };
  return { ok: true, entry };
}
