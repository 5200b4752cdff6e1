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
  /** Extension members, e.g. the `missingValues` of a refused deployment. */
  [extension: string]: unknown;
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

// ——— Environments, agent groups and environment variables ———

/** `Environment` — agent groups run in one; variables and API keys have values per environment. */
export interface Environment {
  id: string;
  name: string;
  description?: string;
  createdAt: string;
  updatedAt: string;
}

/** `CreateEnvironment`. */
export interface CreateEnvironment {
  name: string;
  description?: string;
}

/** `ModifyEnvironment`; `description: null` removes it. */
export interface ModifyEnvironment {
  name?: string;
  description?: string | null;
}

export type AgentGroupPlatform = 'cross-platform' | 'legacy';

/** `AgentGroup` — each cross-platform group is one gateway listener; legacy groups support no passthrough. */
export interface AgentGroup {
  id: string;
  name: string;
  environmentId: string;
  platform: AgentGroupPlatform;
  host: string;
  port: number;
  createdAt: string;
  updatedAt: string;
}

export type EnvironmentVariableType = 'string' | 'number' | 'boolean' | 'secret';
export const ENVIRONMENT_VARIABLE_TYPES: readonly EnvironmentVariableType[] = [
  'string',
  'number',
  'boolean',
  'secret',
];
export type EnvironmentVariableKind = 'value' | 'group';

/** How the API shows a secret value; sending it back for a secret keeps the stored value. */
export const SECRET_MASK = '********';

export type EnvironmentVariableScalar = string | number | boolean;

export interface EnvironmentVariableMember {
  name: string;
  type: EnvironmentVariableType;
}

/** A variable's value (single value) or member values (group) in one environment; secrets as `********`. */
export interface EnvironmentVariableValues {
  value?: EnvironmentVariableScalar;
  members?: Record<string, EnvironmentVariableScalar>;
}

/** `EnvironmentVariable`. */
export interface EnvironmentVariable {
  id: string;
  name: string;
  description?: string;
  kind: EnvironmentVariableKind;
  /** For a single-value variable. */
  type?: EnvironmentVariableType;
  /** For a group. */
  members?: EnvironmentVariableMember[];
  /** environmentId → values. */
  values: Record<string, EnvironmentVariableValues>;
  createdAt: string;
  updatedAt: string;
}

/** `CreateEnvironmentVariable`. */
export type CreateEnvironmentVariable =
  | { kind: 'value'; name: string; description?: string; type: EnvironmentVariableType }
  | { kind: 'group'; name: string; description?: string; members: EnvironmentVariableMember[] };

/** `ModifyEnvironmentVariable`; `description: null` removes it. */
export interface ModifyEnvironmentVariable {
  name?: string;
  description?: string | null;
  type?: EnvironmentVariableType;
  members?: EnvironmentVariableMember[];
}

/** `SetEnvironmentVariableValues` — members left out lose their value in that environment. */
export type SetEnvironmentVariableValues =
  { value: EnvironmentVariableScalar } | { members: Record<string, EnvironmentVariableScalar> };

// ——— API policies and API keys ———

export const POLICY_METHODS = [
  'ALL',
  'GET',
  'PUT',
  'POST',
  'DELETE',
  'OPTIONS',
  'HEAD',
  'PATCH',
  'TRACE',
] as const;
export type PolicyMethod = (typeof POLICY_METHODS)[number];

export interface PolicyEndpoint {
  method: PolicyMethod;
  pathPrefix: string;
}

export interface JwtClaimRule {
  claim: string;
  values: string[];
}

export type PolicyGrant =
  | { type: 'public' }
  | { type: 'apiKey'; headerName: string; queryName?: string }
  | { type: 'jwt'; issuer: string; audience: string; claims: JwtClaimRule[] };
export type PolicyGrantType = PolicyGrant['type'];

export type ThrottlePeriod = 'minute' | 'hour' | 'day';
export interface PolicyThrottle {
  limit: number;
  per: ThrottlePeriod;
}

/** `Policy`. */
export interface Policy {
  id: string;
  name: string;
  agentGroupId: string;
  endpoints: PolicyEndpoint[];
  grants: PolicyGrant[];
  throttle?: PolicyThrottle;
  createdAt: string;
  updatedAt: string;
}

/** `CreatePolicy`. */
export interface CreatePolicy {
  name: string;
  agentGroupId: string;
  endpoints: PolicyEndpoint[];
  grants: PolicyGrant[];
  throttle?: PolicyThrottle;
}

/** `ModifyPolicy`; `throttle: null` removes it. */
export interface ModifyPolicy {
  name?: string;
  agentGroupId?: string;
  endpoints?: PolicyEndpoint[];
  grants?: PolicyGrant[];
  throttle?: PolicyThrottle | null;
}

/** `ApiKey` — never the key itself. */
export interface ApiKey {
  id: string;
  name: string;
  environmentId: string;
  /** The first characters of the key, to recognise it. */
  prefix: string;
  /** Empty: every apiKey policy of its environment. */
  policyIds: string[];
  createdAt: string;
  expiresAt?: string;
  expired: boolean;
}

/** `CreateApiKey`. */
export interface CreateApiKey {
  name: string;
  environmentId: string;
  policyIds?: string[];
  /** ISO 8601 UTC, in the future. */
  expiresAt?: string;
}

/** `CreatedApiKey` — the key is in this response only. */
export interface CreatedApiKey {
  apiKey: ApiKey;
  key: string;
}

// ——— API monitoring ———

export const MONITORING_OUTCOMES = [
  'forwarded',
  'unmatched',
  'method-not-allowed',
  'preflight',
  'unauthenticated',
  'denied',
  'throttled',
  'payload-too-large',
  'refused',
  'configuration-error',
  'upstream-error',
  'timeout',
  'client-aborted',
] as const;
export type MonitoringOutcome = (typeof MONITORING_OUTCOMES)[number];

/** `MonitoringRecord` — one request that reached a gateway listener. */
export interface MonitoringRecord {
  id: number;
  /** When the request arrived, ISO 8601 UTC. */
  time: string;
  agentGroupId: string;
  agentGroupName: string;
  method: string;
  /** As received, without the query string. */
  path: string;
  apiId?: string;
  apiName?: string;
  /** `GET /orders/{id}`, or `*` for All operations. */
  operation?: string;
  /** 0 when no response was sent. */
  status: number;
  durationMs: number;
  bytesIn: number;
  bytesOut: number;
  /** Secrets masked as `********`. */
  targetUrl?: string;
  outcome: MonitoringOutcome;
  clientIp: string;
  /** `apiKey:<prefix>`, `jwt:<sub>`, `public`. */
  identity?: string;
  reason?: string;
}

/** Filters shared by the list and the summary (the API's own parameter names). */
export interface MonitoringFilter {
  startDateTimeUtc?: string;
  endDateTimeUtc?: string;
  apiId?: string;
  operation?: string;
  /** A code (`404`) or a class (`4xx`). */
  status?: string;
  method?: string;
  minDurationMs?: number;
  /** Path prefix, case-sensitive. */
  path?: string;
  agentGroupId?: string;
  outcome?: MonitoringOutcome;
}

export interface MonitoringQuery extends MonitoringFilter {
  PageNumber: number;
  PageSize: number;
}

export const MONITORING_PAGE_SIZES = [25, 50, 100, 200, 500] as const;
export const MONITORING_DEFAULT_PAGE_SIZE = 50;

export type MonitoringStatusClass = '1xx' | '2xx' | '3xx' | '4xx' | '5xx' | 'other';
export type MonitoringStatusCounts = Record<MonitoringStatusClass, number>;

export type MonitoringSummaryInterval = '1m' | '5m' | '1h' | '1d';

/** `MonitoringSummaryBucket` — covers [start, start + interval); percentiles null when empty. */
export interface MonitoringSummaryBucket {
  start: string;
  count: number;
  status: MonitoringStatusCounts;
  p50: number | null;
  p95: number | null;
  p99: number | null;
}

/** `MonitoringSummary`. */
export interface MonitoringSummary {
  interval: MonitoringSummaryInterval;
  start: string;
  end: string;
  buckets: MonitoringSummaryBucket[];
  totals: {
    count: number;
    status: MonitoringStatusCounts;
    p50: number | null;
    p95: number | null;
    p99: number | null;
    minDurationMs: number | null;
    maxDurationMs: number | null;
    averageDurationMs: number | null;
  };
}

/** An API as the monitoring filters offer it (from `GET /api/v1/apis`). */
export interface MonitoredApiChoice {
  id: string;
  name: string;
  basePath: string;
}
