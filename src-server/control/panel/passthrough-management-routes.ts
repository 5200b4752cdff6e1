import { ApiCatalogService } from '../apis/api-catalog-service.js';
import { ApiImportService } from '../apis/api-import-service.js';
import type { ApiImports } from '../apis/api-imports.js';
import { ApiRevisionService } from '../apis/api-revision-service.js';
import { apiDocumentRoutes } from '../apis/routes/api-document-routes.js';
import { apiImportJobRoutes } from '../apis/routes/api-import-job-routes.js';
import { apiRevisionRoutes } from '../apis/routes/api-revision-routes.js';
import { ApiKeyDigest } from '../policies/api-key-digest.js';
import { apiRoutes } from '../apis/routes/api-routes.js';
import { agentGroupRoutes, type GatewayListeners } from '../environments/agent-group-routes.js';
import { AgentGroupService } from '../environments/agent-group-service.js';
import { environmentRoutes } from '../environments/environment-routes.js';
import { EnvironmentService } from '../environments/environment-service.js';
import { environmentVariableRoutes } from '../environments/environment-variable-routes.js';
import { EnvironmentVariableService } from '../environments/environment-variable-service.js';
import type { AnyRoute } from '../http/route.js';
import { apiKeyRoutes } from '../policies/api-key-routes.js';
import { ApiKeyService } from '../policies/api-key-service.js';
import { policyRoutes } from '../policies/policy-routes.js';
import { PolicyService } from '../policies/policy-service.js';
import type { ManagementContext } from '../common/management-context.js';
import { managementDeps } from '../common/management-deps.js';
import { passthroughRoutes } from '../passthroughs/passthrough-routes.js';
import { PassthroughService } from '../passthroughs/passthrough-service.js';

/**
 * Environments, agent groups, environment variables, API definitions, Passthrough configurations, policies
 * and API keys.
 */
export function passthroughManagementRoutes(
  context: ManagementContext,
  imports: ApiImports,
  listeners: GatewayListeners,
): AnyRoute[] {
  const { tenant, settings } = context;
  const deps = managementDeps(tenant);
  const catalog = new ApiCatalogService(deps);
  const importer = new ApiImportService(deps, imports.runner);
  const controlPanel = { host: settings.str('ControlPanel:Host'), port: settings.int('ControlPanel:Port') };
  return [
    ...environmentRoutes(new EnvironmentService(deps)),
    ...agentGroupRoutes(
      new AgentGroupService(deps, controlPanel, (id) => listeners.localAddress(id)),
      listeners,
    ),
    ...environmentVariableRoutes(new EnvironmentVariableService(deps)),
    ...apiRoutes(catalog, importer),
    ...apiDocumentRoutes(catalog, importer),
    ...apiImportJobRoutes(catalog, importer, imports.jobs),
    ...apiRevisionRoutes(catalog, new ApiRevisionService(deps)),
    ...passthroughRoutes(new PassthroughService(deps)),
    ...policyRoutes(new PolicyService(deps), () => deps.store.data),
    ...apiKeyRoutes(new ApiKeyService(deps, () => ApiKeyDigest.open(tenant.keys)), deps.now),
  ];
}
