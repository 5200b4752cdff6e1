import { auditLogRoutes } from '../audit/audit-log-routes.js';
import { auditChainRoutes } from '../audit/audit-chain-routes.js';
import { auditPaging } from '../audit/paging/audit-paging.js';
import { auditChangesRoutes } from '../audit/audit-changes-routes.js';
import { savedFilterRoutes } from '../audit/saved-filters/saved-filter-routes.js';
import type { AnyRoute } from '../http/route.js';
import { lazyRouteGroup, type LazyRouteGroup } from '../http/route-group.js';
import type { ManagementRoutesInput } from './management-routes-input.js';

/** Where the routes of ./lazy-management-routes.ts are (each of them under one of these). */
const LAZY_MANAGEMENT_PREFIXES = [
  '/.well-known/openid-configuration',
  '/oauth2',
  '/api/v1/me',
  '/api/v1/session',
  '/api/v1/activities',
  '/api/v1/roles',
  '/api/v1/app-registrations',
  '/api/v1/tenant',
  '/api/v1/environments',
  '/api/v1/agent-groups',
  '/api/v1/environment-variables',
  '/api/v1/apis',
  '/api/v1/api-imports',
  '/api/v1/policies',
  '/api/v1/api-keys',
  '/api/v1/audit-sources',
  '/api/v1/monitoring',
  '/api/v1/instances',
];

export interface ManagementRoutes {
  /** Built at the first request under their prefixes: every route but the audit log's. */
  groups: LazyRouteGroup[];
  /** Built at start: the audit log's, whose first answer a cold start is timed to (bench:audit). */
  routes: AnyRoute[];
}

/**
 * Every management route for one Control Panel start; the audit log only when its flag was on at that start.
 * The group's modules load at its first request (`import()`: the bundle keeps them out of the start's chunks).
 */
export function managementRoutes(input: ManagementRoutesInput): ManagementRoutes {
  const { tenant, settings, verificationRuns, ...lazyOnly } = input;
  // One group, one module: each further `import()` splits the bundle's shared code into more chunks, and the
  // start loads every chunk its own modules need (40 more files for six groups, ~1 ms each).
  const groups = [
    lazyRouteGroup('management', LAZY_MANAGEMENT_PREFIXES, async () => {
      const { lazyManagementRoutes } = await import('./lazy-management-routes.js');
      return lazyManagementRoutes({ tenant, settings, ...lazyOnly, imports: await lazyOnly.imports.get() });
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
