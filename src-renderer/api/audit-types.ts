/**
 * Payloads of the audit log endpoints, as the console uses them (schema names of the OpenAPI document at
 * `/swagger/v1/swagger.json` in the comments).
 */

export type AuditCategory = 'general' | 'configuration' | 'agent';

/** `Activity` — GET /api/v1/activities. */
export interface Activity {
  name: string;
  description: string;
  category: AuditCategory;
  readOnly: boolean;
  roles: string[];
}

/** `AuditResource`. */
export interface AuditResource {
  type: string;
  id: string;
  name?: string;
}

/** `AuditEntry`. */
export interface AuditEntry {
  id: number;
  actionName: string;
  userName: string;
  /** ISO 8601 UTC. */
  timestamp: string;
  parameters: Record<string, unknown>;
  resources: AuditResource[];
  agentGroup?: { id: string; name: string };
  category: AuditCategory;
  statusCode?: number;
  description?: string;
}

/** `AuditLogPage` — GET /api/v1/audit-log. */
export interface AuditLogPage {
  items: AuditEntry[];
  pageNumber: number;
  pageSize: number;
  totalCount: number;
}

/** Filters shared by the list and the export endpoint; date-times are ISO 8601 with `Z`. */
export interface AuditLogFilter {
  startDateTimeUtc?: string;
  endDateTimeUtc?: string;
  actionName?: string;
  userName?: string;
}

export interface AuditLogQuery extends AuditLogFilter {
  PageNumber: number;
  PageSize: number;
}

export type AuditExportFormat = 'ndjson' | 'csv';

export const AUDIT_PAGE_SIZES = [30, 50, 100, 200] as const;
export const AUDIT_DEFAULT_PAGE_SIZE = 30;
