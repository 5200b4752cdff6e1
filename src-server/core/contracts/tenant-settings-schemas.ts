import * as z from 'zod';
import { AUDIT_LOG_FLAG_KEY } from './constants.js';

export { AUDIT_LOG_FLAG_KEY };
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
    echoTargetUrl: z.string().meta({
      description:
        'The built-in echo target of this Control Panel (`http://127.0.0.1:4700/echo`): it answers any request from this computer with the request it received, as JSON.',
    }),
    instance: z.string().meta({
      description:
        "This instance's name (`Instance:Id`). The status, the pending settings and the restart are this instance's own.",
    }),
    sharedDatabase: z.boolean().meta({
      description:
        'Other instances may share this database (PostgreSQL): each keeps its own settings file, pending settings and restart.',
    }),
  })
  .meta({ id: 'ControlPanelStatus' });
export type ControlPanelStatus = z.output<typeof ControlPanelStatusSchema>;

export const RestartAcceptedSchema = z
  .object({ status: z.literal('restarting'), previousStartedAt: z.string() })
  .meta({ id: 'RestartAccepted' });
export type RestartAccepted = z.output<typeof RestartAcceptedSchema>;

export const BACKUP_KINDS = ['full', 'differential'] as const;

export const BackupSchema = z
  .object({
    name: z.string().meta({ example: 'gatehouse-20261125T020000000Z-diff' }),
    kind: z.enum(BACKUP_KINDS).meta({
      description: 'A full copy of the database, or the rows changed since the full backup it builds on.',
    }),
    base: z.string().optional().meta({ description: 'The full backup a differential builds on.' }),
    takenAt: z.string().meta({ description: 'ISO 8601 UTC.' }),
    bytes: z.int().meta({ description: 'The size of the backup file.' }),
  })
  .meta({ id: 'Backup' });
export type Backup = z.output<typeof BackupSchema>;

export const BackupOverviewSchema = z
  .object({
    engine: z.enum(['sqlite', 'postgres']).meta({
      description:
        'sqlite: the embedded database, backed up by Gatehouse. postgres: backed up with PostgreSQL’s own tools (README: Backups); the list is then empty.',
    }),
    directory: z.string().optional().meta({ description: 'Backup:Directory, where the backups are kept.' }),
    backups: z.array(BackupSchema).meta({ description: 'Oldest first; each is kept a month.' }),
    restorableWindow: z.object({ from: z.string(), to: z.string() }).nullable().meta({
      description:
        'The moments `gatehouse restore --to` can rebuild (ISO 8601 UTC): the last 35 days at most, up to now while the database can be read.',
    }),
    totalBytes: z.int(),
  })
  .meta({ id: 'BackupOverview' });
export type BackupOverview = z.output<typeof BackupOverviewSchema>;
