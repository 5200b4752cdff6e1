import type { AuditLogFilter } from '../../../api/types.js';

/** "tenant acme, actionName Api.Create, from 2026-03-01T00:00Z" — a filter in a line. */
export function describeFilter(filter: AuditLogFilter): string {
  const parts = Object.entries(filter)
    .filter(([, value]) => typeof value === 'string' && value !== '')
    .map(([key, value]) => {
      if (key === 'startDateTimeUtc') return `from ${String(value).slice(0, 16)}Z`;
      if (key === 'endDateTimeUtc') return `to ${String(value).slice(0, 16)}Z`;
      return `${key} ${String(value)}`;
    });
  return parts.length > 0 ? parts.join(', ') : 'everything';
}
