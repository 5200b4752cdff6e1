import type { AuditCategory, AuditEntry, AuditResource } from '../api/types.js';

export type FileEntryResult = { ok: true; entry: AuditEntry } | { ok: false; message: string };

const CATEGORIES: readonly string[] = ['general', 'configuration', 'agent'] satisfies AuditCategory[];

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?(Z|z|[+-]\d{2}:?\d{2})?$/;

const CANONICAL = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** An ISO 8601 date-time (UTC when it names no offset) as Gatehouse writes it, or undefined. */
export function canonicalTimestamp(text: string): string | undefined {
  // Every Gatehouse timestamp: one parse, and reading it back the same rules out a date that rolled over.
  if (CANONICAL.test(text)) {
    const ms = Date.parse(text);
    if (!Number.isNaN(ms) && new Date(ms).toISOString() === text) return text;
  }
  const match = DATE_TIME.exec(text.trim());
  if (!match) return undefined;
  const [, y, mo, d, h = '00', mi = '00', s = '00', frac = '', zone = 'Z'] = match;
  const offset = /^[zZ]$/.test(zone) ? 'Z' : zone.replace(/^([+-]\d\d):?(\d\d)$/, '$1:$2');
  const iso = `${y}-${mo}-${d}T${h}:${mi}:${s}.${(frac + '000').slice(0, 3)}${offset}`;
  const ms = Date.parse(iso);
  // Date.parse rolls 31 February over to March: only a date that reads back the same is one.
  if (
    Number.isNaN(ms) ||
    Number(h) > 23 ||
    Number(mi) > 59 ||
    Number(s) > 59 ||
    new Date(Date.parse(`${y}-${mo}-${d}T00:00:00Z`)).getUTCDate() !== Number(d)
  )
    return undefined;
  const canonical = new Date(ms).toISOString();
  return canonical === text ? text : canonical;
}

function parametersOf(raw: unknown): Record<string, unknown> | string {
  if (raw === undefined || raw === null || raw === '') return {};
  if (isObject(raw)) return raw;
  if (typeof raw === 'string') {
    try {
      const parsed: unknown = JSON.parse(raw);
      return isObject(parsed) ? parsed : { value: parsed };
    } catch (error) {
      return `parameters is a string that is not JSON (${(error as Error).message})`;
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

const nonEmpty = (value: unknown): value is string => typeof value === 'string' && value !== '';

/**
 * One record of an export file → the entry the console shows. Reads what `gatehouse audit import` reads:
 * Gatehouse's entries (`actionName`, `userName`, `timestamp`, …, and a chained export's `chain` link, ignored) and
 * the platform's other shape (`action`, `user`, `timestampUtc`, `parameters` as a JSON string). A record without
 * an integer `id` is numbered by its position in the file.
 */
export function fileEntryOf(raw: unknown, position: number): FileEntryResult {
  if (!isObject(raw)) return { ok: false, message: 'an entry must be a JSON object' };
  const actionName = raw.actionName ?? raw.action;
  const userName = raw.userName ?? raw.user;
  const timestampText = raw.timestamp ?? raw.timestampUtc;
  if (typeof actionName !== 'string' || actionName.trim() === '')
    return { ok: false, message: 'actionName (or action) is missing' };
  if (typeof userName !== 'string') return { ok: false, message: 'userName (or user) is missing' };
  if (typeof timestampText !== 'string')
    return { ok: false, message: 'timestamp (or timestampUtc) is missing' };
  const timestamp = canonicalTimestamp(timestampText);
  if (timestamp === undefined)
    return { ok: false, message: `timestamp '${timestampText.slice(0, 40)}' is not an ISO 8601 date-time` };
  const parameters = parametersOf(raw.parameters);
  if (typeof parameters === 'string') return { ok: false, message: parameters };
  const category =
    typeof raw.category === 'string' && CATEGORIES.includes(raw.category)
      ? (raw.category as AuditCategory)
      : /^agents?\./i.test(actionName)
        ? 'agent'
        : 'general';
  const agentGroup = raw.agentGroup;
  const entry: AuditEntry = {
    id: Number.isSafeInteger(raw.id) ? (raw.id as number) : position,
    actionName,
    userName,
    timestamp,
    parameters,
    resources: resourcesOf(raw.resources),
    category,
    ...(isObject(agentGroup) && typeof agentGroup.id === 'string'
      ? {
          agentGroup: {
            id: agentGroup.id,
            name: typeof agentGroup.name === 'string' ? agentGroup.name : agentGroup.id,
          },
        }
      : {}),
    ...(Number.isSafeInteger(raw.statusCode) ? { statusCode: raw.statusCode as number } : {}),
    ...(nonEmpty(raw.description) ? { description: raw.description } : {}),
    ...(nonEmpty(raw.instance) ? { instance: raw.instance } : {}),
    ...(Number.isSafeInteger(raw.sourceId) ? { sourceId: raw.sourceId as number } : {}),
    ...(nonEmpty(raw.tenant) ? { tenant: raw.tenant } : {}),
  };
  return { ok: true, entry };
}
