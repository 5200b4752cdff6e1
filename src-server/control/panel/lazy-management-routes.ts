import type { AnyRoute } from '../http/route.js';
import { identityProviderRoutes } from '../identity/identity-provider-routes.js';
import { sessionRoutes } from '../identity/session-routes.js';
import { signInOptionsRoutes } from '../identity/sign-in-options-route.js';
import { activityRoutes } from '../identity/activity-routes.js';
import { appRegistrationRoutes } from '../identity/app-registration-routes.js';
import { tenantSettingsRoutes } from '../settings/tenant-settings-routes.js';
import { backupRoutes } from '../settings/backup-routes.js';
import { passthroughManagementRoutes } from './passthrough-management-routes.js';
import { passthroughPreviewRoutes } from '../passthroughs/preview-routes.js';
import { passthroughTryRoutes } from '../passthroughs/try-it/try-it-routes.js';
import { auditSourceRoutes } from '../audit/sources/audit-source-routes.js';
import { monitoringRoutes } from '../monitoring/monitoring-routes.js';
import { instanceRoutes } from '../instances/instance-routes.js';
import type { ManagementRoutesInput } from './management-routes-input.js';
import type { ApiImports } from '../apis/api-imports.js';

/**
 * The management routes a cold start's first answer (an audit log page) never needs: identity, tenant settings,
 * passthrough management, audit sources, monitoring and instances. Loaded by `import()` at the first request
 * under their prefixes (management-routes.ts).
 */
export function lazyManagementRoutes({
  tenant,
  settings,
  tokenIssuer,
  tenantSettings,
  gateway,
  externalSignIn,
  imports,
  syncRuns,
  instances,
}: Omit<ManagementRoutesInput, 'verificationRuns' | 'imports'> & { imports: ApiImports }): AnyRoute[] {
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
  ];
}
