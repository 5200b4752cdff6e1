import { auditLogRoutes } from '../audit/audit-log-routes.js';
import { auditChainRoutes } from '../audit/audit-chain-routes.js';
import { auditPaging } from '../audit/paging/audit-paging.js';
import { auditChangesRoutes } from '../audit/audit-changes-routes.js';
import { savedFilterRoutes } from '../audit/saved-filters/saved-filter-routes.js';
import type { SyncRuns } from '../audit/sources/sync-runs.js';
import type { VerificationRuns } from '../audit/verification-runs.js';
import type { TokenIssuer } from '../identity/token-issuer.js';
import type { SettingsSnapshot } from '../../core/settings/settings.js';
import type { TenantSettingsDeps } from '../settings/tenant-settings-routes.js';
import type { AnyRoute } from '../http/route.js';
import { lazyRouteGroup, type LazyRouteGroup } from '../http/route-group.js';
import type { TryItGateway } from '../passthroughs/try-it/try-it-routes.js';
import type { Tenant } from '../common/tenant.js';
import type { ExternalSignIn } from '../identity/sign-in-options-route.js';
import type { ApiImports } from '../apis/api-imports.js';
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

export interface ManagementRoutes {
  /** Built at the first request under their prefixes. */
  groups: LazyRouteGroup[];
  /** Built at start: the audit log's, whose first answer a cold start is timed to (bench:audit). */
  routes: AnyRoute[];
}

/**
 * Every management route for one Control Panel start; the audit log only when its flag was on at that start.
 * The groups' modules load at their first request (`import()`: the bundle keeps them out of the start's chunks).
 */
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
}: ManagementRoutesInput): ManagementRoutes {
  const tokenLifetimeSeconds = () => settings.int('Auth:TokenLifetimeMinutes') * 60;
  const groups = [
    lazyRouteGroup(
      'identity',
      [
        '/.well-known/openid-configuration',
        '/oauth2',
        '/api/v1/me',
        '/api/v1/session',
        '/api/v1/activities',
        '/api/v1/roles',
        '/api/v1/app-registrations',
      ],
      async () => {
        const [provider, session, signInOptions, activities, appRegistrations] = await Promise.all([
          import('../identity/identity-provider-routes.js'),
          import('../identity/session-routes.js'),
          import('../identity/sign-in-options-route.js'),
          import('../identity/activity-routes.js'),
          import('../identity/app-registration-routes.js'),
        ]);
        return [
          ...provider.identityProviderRoutes({
            keys: tenant.signingKeys,
            issuer: tokenIssuer,
            registrations: tenant.registrations,
            tokenLifetimeSeconds,
            logger: tenant.logger,
          }),
          ...session.sessionRoutes({
            tickets: tenant.signInTickets,
            issuer: tokenIssuer,
            tokenLifetimeSeconds,
            now: tenant.now,
          }),
          ...signInOptions.signInOptionsRoutes({ externalSignIn, logger: tenant.logger }),
          ...activities.activityRoutes(),
          ...appRegistrations.appRegistrationRoutes(tenant.registrations),
        ];
      },
    ),
    lazyRouteGroup('tenant settings', ['/api/v1/tenant'], async () => {
      const [settingsRoutes, backups] = await Promise.all([
        import('../settings/tenant-settings-routes.js'),
        import('../settings/backup-routes.js'),
      ]);
      return [
        ...settingsRoutes.tenantSettingsRoutes(tenantSettings),
        ...backups.backupRoutes(tenant.backups),
      ];
    }),
    lazyRouteGroup(
      'passthrough management',
      [
        '/api/v1/environments',
        '/api/v1/agent-groups',
        '/api/v1/environment-variables',
        '/api/v1/apis',
        '/api/v1/api-imports',
        '/api/v1/policies',
        '/api/v1/api-keys',
      ],
      async () => {
        const [management, preview, tryIt] = await Promise.all([
          import('./passthrough-management-routes.js'),
          import('../passthroughs/preview-routes.js'),
          import('../passthroughs/try-it/try-it-routes.js'),
        ]);
        return [
          ...management.passthroughManagementRoutes({ tenant, settings }, imports, gateway),
          ...preview.passthroughPreviewRoutes({ tenant, settings }),
          ...tryIt.passthroughTryRoutes({ tenant, settings }, gateway),
        ];
      },
    ),
    lazyRouteGroup('audit sources', ['/api/v1/audit-sources'], async () => {
      const { auditSourceRoutes } = await import('../audit/sources/audit-source-routes.js');
      return auditSourceRoutes(tenant.auditSources, syncRuns);
    }),
    lazyRouteGroup('monitoring', ['/api/v1/monitoring'], async () => {
      const { monitoringRoutes } = await import('../monitoring/monitoring-routes.js');
      return monitoringRoutes({ monitoring: tenant.monitoring, now: tenant.now });
    }),
    lazyRouteGroup('instances', ['/api/v1/instances'], async () => {
      const { instanceRoutes } = await import('../instances/instance-routes.js');
      return instanceRoutes(instances);
    }),
  ];
  const routes = settings.bool('Flags:EnableServiceApiAuditLogRoute')
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
    : [];
  return { groups, routes };
}
