import * as z from 'zod';

/** The setting that mounts `GET /api/v1/audit-log` (at the Control Panel's next start). */
export const AUDIT_LOG_FLAG_KEY = 'Flags:EnableServiceApiAuditLogRoute';
export type AuditLogFlagKey = typeof AUDIT_LOG_FLAG_KEY;

export const SETTING_TYPES = ['boolean', 'integer', 'string'] as const;
export type SettingType = (typeof SETTING_TYPES)[number];
export const SETTING_SOURCES = ['default', 'appsettings', 'environment', 'commandLine'] as const;
export type SettingSource = (typeof SETTING_SOURCES)[number];

const SettingValueSchema = z.union([z.boolean(), z.number(), z.string()]);
export type SettingValue = z.output<typeof SettingValueSchema>;

export const TenantSettingSchema = z
  .object({
    key: z.string().meta({ example: AUDIT_LOG_FLAG_KEY }),
    type: z.enum(SETTING_TYPES),
    description: z.string(),
    tenantEditable: z.boolean().meta({ description: 'Can be changed through this API (Operator role).' }),
    defaultValue: SettingValueSchema,
    effectiveValue: SettingValueSchema.meta({
      description: 'The value in force since the Control Panel last started.',
    }),
    configuredValue: SettingValueSchema.meta({
      description: 'The value the next Control Panel start will use.',
    }),
    configuredSource: z.enum(SETTING_SOURCES),
    pendingRestart: z
      .boolean()
      .meta({ description: 'configuredValue differs from effectiveValue until a restart.' }),
  })
  .meta({ id: 'TenantSetting' });
export type TenantSetting = z.output<typeof TenantSettingSchema>;

export const SetTenantSettingSchema = z
  .object({ value: SettingValueSchema })
  .strict()
  .meta({ id: 'SetTenantSetting' });

export const ControlPanelStatusSchema = z
  .object({
    startedAt: z.string(),
    restartCount: z.int(),
    pendingRestart: z.boolean(),
    auditLogRouteEnabled: z.boolean(),
    version: z.string(),
  })
  .meta({ id: 'ControlPanelStatus' });
export type ControlPanelStatus = z.output<typeof ControlPanelStatusSchema>;

export const RestartAcceptedSchema = z
  .object({ status: z.literal('restarting'), previousStartedAt: z.string() })
  .meta({ id: 'RestartAccepted' });
export type RestartAccepted = z.output<typeof RestartAcceptedSchema>;
