import type { AuditEntry, AuditLogFilter } from '../api/types.js';
import { canonicalTimestamp } from './file-entry.js';

/** Runs of letters and digits, lower-cased: the words the server's full-text search indexes and looks for. */
function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

function valueWords(value: unknown, into: string[]): void {
  if (typeof value === 'string') into.push(...wordsOf(value));
  else if (typeof value === 'number' || typeof value === 'boolean') into.push(...wordsOf(String(value)));
  else if (Array.isArray(value)) for (const element of value) valueWords(element, into);
  else if (value !== null && typeof value === 'object')
    for (const element of Object.values(value)) valueWords(element, into);
}

/** A bound of the range in ms; without an offset it is UTC, as the API reads it. */
function instantOf(text: string | undefined): number | undefined {
  const canonical = text ? canonicalTimestamp(text) : undefined;
  return canonical === undefined ? undefined : Date.parse(canonical);
}

/**
 * The filter of the live audit log applied to a file's entries, with the server's rules: the start inclusive and
 * the end exclusive, action, user and instance exact (action and user in any case), a resource `Type:id` exactly,
 * and every searched word as the start of a word of the parameters' values. The tenant is not a filter here.
 */
export function filterFileEntries(entries: readonly AuditEntry[], filter: AuditLogFilter): AuditEntry[] {
  const start = instantOf(filter.startDateTimeUtc);
  const end = instantOf(filter.endDateTimeUtc);
  const action = filter.actionName?.toLowerCase();
  const user = filter.userName?.toLowerCase();
  const separator = filter.resource?.indexOf(':') ?? -1;
  const resource =
    filter.resource && separator > 0
      ? { type: filter.resource.slice(0, separator), id: filter.resource.slice(separator + 1) }
      : undefined;
  const searched = filter.search ? wordsOf(filter.search) : [];
  return entries.filter((entry) => {
    if (start !== undefined || end !== undefined) {
      const time = Date.parse(entry.timestamp);
      if (start !== undefined && time < start) return false;
      if (end !== undefined && time >= end) return false;
    }
    if (action !== undefined && entry.actionName.toLowerCase() !== action) return false;
    if (user !== undefined && entry.userName.toLowerCase() !== user) return false;
    if (filter.instance !== undefined && entry.instance !== filter.instance) return false;
    if (resource && !entry.resources.some((r) => r.type === resource.type && r.id === resource.id))
      return false;
    if (searched.length > 0) {
      const words: string[] = [];
      valueWords(entry.parameters, words);
      if (!searched.every((term) => words.some((word) => word.startsWith(term)))) return false;
    }
    return true;
  });
}
