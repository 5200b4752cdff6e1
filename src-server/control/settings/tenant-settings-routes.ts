import * as z from 'zod';
import { HttpProblem, notFound, unprocessable } from '../../core/http/problem.js';
import { LIST_PAGING_QUERY, listPageSchema, paginate } from '../../core/http/paging.js';
import { defineRoute, type AnyRoute } from '../http/route.js';
import {
  SETTING_DEFINITIONS,
  coerceSettingValue,
  findSettingDefinition,
  shownSettingValue,
  type SettingDefinition,
} from '../../core/settings/setting-definitions.js';
import type { SettingsSnapshot, SettingsSource } from '../../core/settings/settings.js';
import { ErrorCode } from '../../core/errors/error-codes.js';

const TAG = 'TenantSettings';

const SettingValueSchema = z.union([z.boolean(), z.number(), z.string()]);

const SettingSchema = z
  .object({
    key: z.string().meta({ example: 'Flags:EnableServiceApiAuditLogRoute' }),
    type: z.enum(['boolean', 'integer', 'string']),
    description: z.string(),
    tenantEditable: z.boolean().meta({ description: 'Can be changed through this API (Operator role).' }),
    defaultValue: SettingValueSchema,
    effectiveValue: SettingValueSchema.meta({
      description: 'The value in force since the Control Panel last started.',
    }),
    configuredValue: SettingValueSchema.meta({
      description: 'The value the next Control Panel start will use.',
    }),
    configuredSource: z.enum(['default', 'appsettings', 'environment', 'commandLine']),
    pendingRestart: z
      .boolean()
      .meta({ description: 'configuredValue differs from effectiveValue until a restart.' }),
  })
  .meta({ id: 'TenantSetting' });

const ControlPanelStatusSchema = z
  .object({
    startedAt: z.string(),
    restartCount: z.int(),
    pendingRestart: z.boolean(),
    auditLogRouteEnabled: z.boolean(),
    version: z.string(),
  })
  .meta({ id: 'ControlPanelStatus' });

export interface TenantSettingsDeps {
  source: SettingsSource;
  effective(): SettingsSnapshot;
  status(): { startedAt: string; restartCount: number; version: string };
  /** Restarts the Control Panel listener once the current response is sent. */
  scheduleRestart(): void;
}

async function describeAll(deps: TenantSettingsDeps) {
  const configured = await deps.source.resolve();
  const effective = deps.effective();
  return SETTING_DEFINITIONS.map((definition) => describeOne(definition, configured, effective));
}

function describeOne(
  definition: SettingDefinition,
  configured: SettingsSnapshot,
  effective: SettingsSnapshot,
) {
  const now = configured.describe(definition.key);
  const effectiveValue = effective.get(definition.key);
  return {
    key: definition.key,
    type: definition.type,
    description: definition.description,
    tenantEditable: definition.tenantEditable,
    defaultValue: definition.defaultValue,
    effectiveValue: shownSettingValue(definition, effectiveValue),
    configuredValue: shownSettingValue(definition, now.value),
    configuredSource: now.source,
    pendingRestart: now.value !== effectiveValue,
  };
}

export function tenantSettingsRoutes(deps: TenantSettingsDeps): AnyRoute[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/tenant/settings',
      activity: 'TenantSettings.View',
      tag: TAG,
      operationId: 'listTenantSettings',
      summary: 'Settings with their effective and pending values',
      query: LIST_PAGING_QUERY,
      responses: [{ status: 200, description: 'Every setting.', schema: listPageSchema(SettingSchema) }],
      async handler({ query }) {
        return { body: paginate(await describeAll(deps), query.PageNumber, query.PageSize) };
      },
    }),
    defineRoute({
      method: 'PUT',
      path: '/api/v1/tenant/settings/:key',
      activity: 'TenantSettings.Modify',
      tag: TAG,
      operationId: 'setTenantSetting',
      summary: 'Change a setting',
      description:
        'Stores the value in appsettings.json. It takes effect when the Control Panel restarts (POST /api/v1/tenant/control-panel/restart). An environment variable or command-line value still wins over it.',
      params: z.object({ key: z.string().min(1).max(200) }),
      body: {
        kind: 'json',
        schema: z.object({ value: SettingValueSchema }).strict().meta({ id: 'SetTenantSetting' }),
      },
      responses: [{ status: 200, description: 'The setting after the change.', schema: SettingSchema }],
      problems: [404, 422],
      async handler({ params, body, audit }) {
        const definition = findSettingDefinition(params.key);
        if (!definition) throw notFound(`There is no setting '${params.key}'.`);
        if (!definition.tenantEditable) {
          throw unprocessable(
            ErrorCode.GH_ERR_DEPLOYMENT_SETTING,
            `${definition.key} is a deployment setting: change it in appsettings.json, an environment variable or a command-line option.`,
          );
        }
        const coerced = coerceSettingValue(definition, body.value);
        if (!coerced.ok)
          throw new HttpProblem(ErrorCode.GH_ERR_VALIDATION, coerced.message, {
            errors: { value: [coerced.message] },
          });
        await deps.source.writeAppSetting(definition.key, coerced.value);
        audit.resources.push({ type: 'TenantSetting', id: definition.key, name: definition.key });
        const described = describeOne(definition, await deps.source.resolve(), deps.effective());
        return { body: described };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/tenant/control-panel',
      activity: 'TenantSettings.View',
      tag: TAG,
      operationId: 'getControlPanelStatus',
      summary: 'When the Control Panel started and whether settings await a restart',
      responses: [{ status: 200, description: 'Status.', schema: ControlPanelStatusSchema }],
      async handler() {
        const settings = await describeAll(deps);
        return {
          body: {
            ...deps.status(),
            pendingRestart: settings.some((setting) => setting.pendingRestart),
            auditLogRouteEnabled: deps.effective().bool('Flags:EnableServiceApiAuditLogRoute'),
          },
        };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/tenant/control-panel/restart',
      activity: 'ControlPanel.Restart',
      tag: TAG,
      operationId: 'restartControlPanel',
      summary: 'Restart the Control Panel',
      description:
        'Answers 202, then restarts the management listener in-process with freshly read settings. Gateway listeners keep serving. Poll GET /api/v1/tenant/control-panel until startedAt changes.',
      responses: [
        {
          status: 202,
          description: 'Restart scheduled.',
          schema: z.object({ status: z.literal('restarting'), previousStartedAt: z.string() }),
        },
      ],
      async handler() {
        deps.scheduleRestart();
        return { status: 202, body: { status: 'restarting', previousStartedAt: deps.status().startedAt } };
      },
    }),
  ];
}
