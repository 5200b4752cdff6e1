/**
 * The management API's payloads as the console uses them. They mirror the OpenAPI document at
 * `/swagger/v1/swagger.json` (schema names in the comments); the renderer never imports server code at run time.
 */

/** ProblemDetails / ValidationProblemDetails (`application/problem+json`). */
export interface ProblemDetails {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  instance?: string;
  traceId?: string;
  errors?: Record<string, string[]>;
}

/** Paging of every management list endpoint except the audit log. */
export interface Paging {
  currentPage: number;
  pageSize: number;
  totalCount: number;
  firstPage: number;
  lastPage: number;
  nextPage: number | null;
  previousPage: number | null;
}

export interface ListPage<T> {
  data: T[];
  paging: Paging;
}

export type RoleName = 'Operator' | 'Administrator' | 'Auditor';
export const BUILT_IN_ROLES: readonly RoleName[] = ['Operator', 'Administrator', 'Auditor'];

/** `CurrentIdentity` — GET /api/v1/me. */
export interface CurrentIdentity {
  userName: string;
  kind: 'user' | 'client';
  roles: string[];
  /** Activities (`{Controller}.{Action}`) the caller may perform. */
  activities: string[];
}

/** `Session` — POST /api/v1/session/sign-in and /refresh. */
export interface SessionToken {
  accessToken: string;
  tokenType: 'Bearer';
  /** Seconds. */
  expiresIn: number;
  userName: string;
  roles: string[];
}

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

export type SettingValue = boolean | number | string;
export type SettingSource = 'default' | 'appsettings' | 'environment' | 'commandLine';

/** `TenantSetting` — GET /api/v1/tenant/settings. */
export interface TenantSetting {
  key: string;
  type: 'boolean' | 'integer' | 'string';
  description: string;
  tenantEditable: boolean;
  defaultValue: SettingValue;
  /** In force since the Control Panel last started. */
  effectiveValue: SettingValue;
  /** What the next Control Panel start will use. */
  configuredValue: SettingValue;
  configuredSource: SettingSource;
  pendingRestart: boolean;
}

/** `ControlPanelStatus` — GET /api/v1/tenant/control-panel. */
export interface ControlPanelStatus {
  startedAt: string;
  restartCount: number;
  pendingRestart: boolean;
  auditLogRouteEnabled: boolean;
  version: string;
}

/** POST /api/v1/tenant/control-panel/restart (202). */
export interface RestartAccepted {
  status: 'restarting';
  previousStartedAt: string;
}

/** `AppRegistration`. */
export interface AppRegistration {
  id: string;
  clientId: string;
  name: string;
  roles: string[];
  createdAt: string;
  secretUpdatedAt: string;
}

/** `AppRegistrationWithSecret` — the secret is returned once, on create and on rotate. */
export interface AppRegistrationWithSecret {
  registration: AppRegistration;
  clientSecret: string;
}

/** `CreateAppRegistration`. */
export interface CreateAppRegistration {
  name: string;
  roles: RoleName[];
}

export const AUDIT_LOG_FLAG_KEY = 'Flags:EnableServiceApiAuditLogRoute';
