import * as z from 'zod';
import { HttpProblem, notFound, unprocessable } from '../../core/http/problem.js';
import { LIST_PAGING_QUERY, paginate } from '../../core/http/paging.js';
import { listPageSchema } from '../../core/contracts/paging-schemas.js';
import {
  AUDIT_LOG_FLAG_KEY,
  ControlPanelStatusSchema,
  RestartAcceptedSchema,
  SetTenantSettingSchema,
  TenantSettingSchema,
} from '../../core/contracts/tenant-settings-schemas.js';
import { defineRoute, type AnyRoute } from '../http/route.js';
import {
  SETTING_DEFINITIONS,
  coerceSettingValue,
  displaySettingValue,
  findSettingDefinition,
  type SettingDefinition,
} from '../../core/settings/setting-definitions.js';
import type { SettingsSnapshot, SettingsSource } from '../../core/settings/settings.js';
import { ErrorCode } from '../../core/contracts/error-codes.js';

const TAG = 'TenantSettings';

export interface TenantSettingsDeps {
  source: SettingsSource;
  effective: () => SettingsSnapshot;
  status: () => {
    startedAt: string;
    restartCount: number;
    version: string;
    echoTargetUrl: string;
    /** This instance's name, and whether other instances may share its database: its settings are its own. */
    instance: string;
    sharedDatabase: boolean;
  };
  /** Restarts the Control Panel listener once the current response is sent. */
  scheduleRestart: () => void;
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
    effectiveValue: displaySettingValue(definition, effectiveValue),
    configuredValue: displaySettingValue(definition, now.value),
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
      responses: [
        { status: 200, description: 'Every setting.', schema: listPageSchema(TenantSettingSchema) },
      ],
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
        schema: SetTenantSettingSchema,
      },
      responses: [{ status: 200, description: 'The setting after the change.', schema: TenantSettingSchema }],
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
            auditLogRouteEnabled: deps.effective().bool(AUDIT_LOG_FLAG_KEY),
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
          schema: RestartAcceptedSchema,
        },
      ],
      handler() {
        deps.scheduleRestart();
        return { status: 202, body: { status: 'restarting', previousStartedAt: deps.status().startedAt } };
      },
    }),
  ];
}
