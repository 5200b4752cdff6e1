/**
 * Payloads of the tenant settings, Control Panel and app registration endpoints, as the console uses them
 * (schema names of the OpenAPI document at `/swagger/v1/swagger.json` in the comments).
 */

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

export type RoleName = 'Operator' | 'Administrator' | 'Auditor';
export const BUILT_IN_ROLES: readonly RoleName[] = ['Operator', 'Administrator', 'Auditor'];
