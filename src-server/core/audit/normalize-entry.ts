import type {
  AuditAgentGroup,
  AuditCategory,
  AuditEntry,
  AuditResource,
  NewAuditEntry,
} from './audit-entry.js';
import { AUDIT_CATEGORIES } from '../contracts/audit-schemas.js';
import { ErrorCode } from '../contracts/error-codes.js';
import { GatehouseError } from '../errors/gatehouse-error.js';

const CATEGORIES: ReadonlySet<string> = new Set(AUDIT_CATEGORIES);

export class InvalidAuditEntryError extends GatehouseError {
  override name = 'InvalidAuditEntryError';
  constructor(message: string) {
    super(ErrorCode.GH_ERR_INVALID_AUDIT_ENTRY, message);
  }
}

/** A validated entry with only the known fields, its timestamp normalized to `toISOString()` form. */
export interface NormalizedEntry {
  entry: NewAuditEntry;
  timeMs: number;
}

/** What an entry may hold before it is checked: it comes from callers and import files, so any field may be off. */
type UncheckedEntry = { readonly [K in keyof NewAuditEntry]?: unknown };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;
const isCategory = (value: unknown): value is AuditCategory =>
  typeof value === 'string' && CATEGORIES.has(value);

export function normalizeEntry(input: unknown): NormalizedEntry {
  if (!isObject(input)) throw new InvalidAuditEntryError('An audit entry must be an object');
  const {
    actionName,
    userName,
    timestamp,
    category,
    statusCode,
    description,
    instance,
    sourceId,
  }: UncheckedEntry = input;
  if (typeof actionName !== 'string' || actionName.length === 0) {
    throw new InvalidAuditEntryError('actionName must be a non-empty string');
  }
  if (typeof userName !== 'string') throw new InvalidAuditEntryError('userName must be a string');
  const timeMs = typeof timestamp === 'string' ? Date.parse(timestamp) : Number.NaN;
  if (typeof timestamp !== 'string' || !Number.isFinite(timeMs))
    throw new InvalidAuditEntryError(`timestamp is not a valid date: ${String(timestamp)}`);
  if (!isCategory(category))
    throw new InvalidAuditEntryError(`category is not one of ${[...CATEGORIES].join(', ')}`);
  const parameters = input.parameters ?? {};
  if (!isObject(parameters) || Array.isArray(parameters)) {
    throw new InvalidAuditEntryError('parameters must be a JSON object');
  }
  const entry: NewAuditEntry = {
    actionName,
    userName,
    timestamp: isCanonicalTimestamp(timestamp) ? timestamp : new Date(timeMs).toISOString(),
    parameters,
    resources: normalizeResources(input.resources),
    category,
  };
  if (input.agentGroup !== undefined) entry.agentGroup = normalizeAgentGroup(input.agentGroup);
  if (statusCode !== undefined) {
    if (typeof statusCode !== 'number' || !Number.isInteger(statusCode))
      throw new InvalidAuditEntryError('statusCode must be an integer');
    entry.statusCode = statusCode;
  }
  if (description !== undefined) {
    if (typeof description !== 'string') throw new InvalidAuditEntryError('description must be a string');
    entry.description = description;
  }
  if (instance !== undefined) {
    if (typeof instance !== 'string') throw new InvalidAuditEntryError('instance must be a string');
    entry.instance = instance;
  }
  if (sourceId !== undefined) {
    if (!Number.isSafeInteger(sourceId)) throw new InvalidAuditEntryError('sourceId must be an integer');
    entry.sourceId = sourceId as number;
  }
  return { entry, timeMs };
}

/** `YYYY-MM-DDTHH:mm:ss.sssZ` exactly (what `toISOString` gives); the caller has checked it parses. */
function isCanonicalTimestamp(timestamp: string): boolean {
  return (
    timestamp.length === 24 &&
    timestamp.charCodeAt(23) === 90 /* Z */ &&
    timestamp.charCodeAt(10) === 84 /* T */ &&
    timestamp.charCodeAt(19) === 46 /* . */ &&
    timestamp.charCodeAt(4) === 45 /* - */
  );
}

function normalizeResources(resources: unknown): AuditResource[] {
  if (resources === undefined) return [];
  if (!Array.isArray(resources)) throw new InvalidAuditEntryError('resources must be an array');
  const normalized: AuditResource[] = [];
  for (const resource of resources as unknown[]) {
    if (!isObject(resource) || typeof resource.type !== 'string' || typeof resource.id !== 'string') {
      throw new InvalidAuditEntryError('each resource needs a string type and id');
    }
    normalized.push(
      resource.name === undefined
        ? { type: resource.type, id: resource.id }
        : { type: resource.type, id: resource.id, name: resource.name as string },
    );
  }
  return normalized;
}

function normalizeAgentGroup(group: unknown): AuditAgentGroup {
  if (!isObject(group) || typeof group.id !== 'string' || typeof group.name !== 'string') {
    throw new InvalidAuditEntryError('agentGroup needs a string id and name');
  }
  return { id: group.id, name: group.name };
}

/** The stored form, fields in a fixed order (built explicitly: object spread is slow on this hot path). */
export function withId(id: number, entry: NewAuditEntry): AuditEntry {
  const result: AuditEntry = {
    id,
    actionName: entry.actionName,
    userName: entry.userName,
    timestamp: entry.timestamp,
    parameters: entry.parameters,
    resources: entry.resources,
    category: entry.category,
  };
  if (entry.agentGroup !== undefined) result.agentGroup = entry.agentGroup;
  if (entry.statusCode !== undefined) result.statusCode = entry.statusCode;
  if (entry.description !== undefined) result.description = entry.description;
  if (entry.instance !== undefined) result.instance = entry.instance;
  if (entry.sourceId !== undefined) result.sourceId = entry.sourceId;
  return result;
}
