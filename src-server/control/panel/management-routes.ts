import { auditLogRoutes } from '../audit/audit-log-routes.js';
import { auditChainRoutes } from '../audit/audit-chain-routes.js';
import { auditPaging } from '../audit/paging/audit-paging.js';
import { auditChangesRoutes } from '../audit/audit-changes-routes.js';
import { auditSourceRoutes } from '../audit/sources/audit-source-routes.js';
import { savedFilterRoutes } from '../audit/saved-filters/saved-filter-routes.js';
import type { SyncRuns } from '../audit/sources/sync-runs.js';
import type { VerificationRuns } from '../audit/verification-runs.js';
import { activityRoutes } from '../identity/activity-routes.js';
import { appRegistrationRoutes } from '../identity/app-registration-routes.js';
import { identityProviderRoutes } from '../identity/identity-provider-routes.js';
import { sessionRoutes } from '../identity/session-routes.js';
import type { TokenIssuer } from '../identity/token-issuer.js';
import type { SettingsSnapshot } from '../../core/settings/settings.js';
import { tenantSettingsRoutes, type TenantSettingsDeps } from '../settings/tenant-settings-routes.js';
import type { AnyRoute } from '../http/route.js';
import { backupRoutes } from '../settings/backup-routes.js';
import { passthroughManagementRoutes } from './passthrough-management-routes.js';
import { monitoringRoutes } from '../monitoring/monitoring-routes.js';
import { passthroughPreviewRoutes } from '../passthroughs/preview-routes.js';
import { passthroughTryRoutes, type TryItGateway } from '../passthroughs/try-it/try-it-routes.js';
import type { Tenant } from '../common/tenant.js';
import { signInOptionsRoutes, type ExternalSignIn } from '../identity/sign-in-options-route.js';
import type { ApiImports } from '../apis/api-imports.js';
import { instanceRoutes } from '../instances/instance-routes.js';
import type { InstanceRegistry } from '../../core/instance/instance-registry.js';
import type { GatewayListeners } from '../environments/agent-group-routes.js';

export interface ManagementRoutesInput {
  tenant: Tenant;
  settings: SettingsSnapshot;
  tokenIssuer: TokenIssuer;
  tenantSettings: TenantSettingsDeps;
  gateway: TryItGateway & GatewayListeners;
  /** The external identity provider's sign-in for the console, when one is configured. */
  externalSignIn: () => Promise<ExternalSignIn | undefined>;
  /** The API import worker and the imports in progress (kept across Control Panel restarts). */
  imports: ApiImports;
  /** The audit syncs running in this server (kept across Control Panel restarts). */
  syncRuns: SyncRuns;
  /** The audit verifications running in this server (kept across Control Panel restarts). */
  verificationRuns: VerificationRuns;
  /** The instances sharing the database. */
  instances: Pick<InstanceRegistry, 'list' | 'name'>;
}

/** Every management route for one Control Panel start; the audit log only when its flag was on at that start. */
export function managementRoutes({
  tenant,
  settings,
  tokenIssuer,
  tenantSettings,
  gateway,
  externalSignIn,
  imports,
  syncRuns,
  verificationRuns,
  instances,
}: ManagementRoutesInput): AnyRoute[] {
  const tokenLifetimeSeconds = () => settings.int('Auth:TokenLifetimeMinutes') * 60;
  return [
    ...identityProviderRoutes({
      keys: tenant.signingKeys,
      issuer: tokenIssuer,
      registrations: tenant.registrations,
      tokenLifetimeSeconds,
      logger: tenant.logger,
    }),
    ...sessionRoutes({
      tickets: tenant.signInTickets,
      issuer: tokenIssuer,
      tokenLifetimeSeconds,
      now: tenant.now,
    }),
    ...signInOptionsRoutes({ externalSignIn, logger: tenant.logger }),
    ...activityRoutes(),
    ...appRegistrationRoutes(tenant.registrations),
    ...tenantSettingsRoutes(tenantSettings),
    ...backupRoutes(tenant.backups),
    ...passthroughManagementRoutes({ tenant, settings }, imports, gateway),
    ...passthroughPreviewRoutes({ tenant, settings }),
    ...passthroughTryRoutes({ tenant, settings }, gateway),
    ...auditSourceRoutes(tenant.auditSources, syncRuns),
    ...monitoringRoutes({ monitoring: tenant.monitoring, now: tenant.now }),
    ...instanceRoutes(instances),
    ...(settings.bool('Flags:EnableServiceApiAuditLogRoute')
      ? [
          ...auditLogRoutes(
            auditPaging(tenant.auditStore, tenant.keys, () => tenant.now().getTime()),
            {
              database: tenant.database,
              signer: tenant.chainSigner,
            },
          ),
          ...auditChangesRoutes(tenant.auditStore),
          ...auditChainRoutes(tenant.database, tenant.chainSigner, verificationRuns),
          ...savedFilterRoutes(tenant.savedFilters),
        ]
      : []),
  ];
}
