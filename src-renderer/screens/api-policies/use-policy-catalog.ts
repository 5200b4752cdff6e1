import { agentGroupsApi, apiKeysApi, environmentsApi, policiesApi } from '../../api/endpoints.js';
import type { AgentGroup, ApiKey, Environment, Policy } from '../../api/types.js';
import { useApiQuery, type ApiQuery } from '../../hooks/use-api-query.js';

export interface PolicyCatalog {
  policies: ApiQuery<Policy[]>;
  apiKeys: ApiQuery<ApiKey[]>;
  agentGroups: ApiQuery<AgentGroup[]>;
  environments: ApiQuery<Environment[]>;
}

/** Everything the API policies screen shows. */
export function usePolicyCatalog(): PolicyCatalog {
  const policies = useApiQuery('policies', (client, signal) => policiesApi.list(client, { signal }));
  const apiKeys = useApiQuery('api-keys', (client, signal) => apiKeysApi.list(client, { signal }));
  const agentGroups = useApiQuery('agent-groups', (client, signal) =>
    agentGroupsApi.list(client, { signal }),
  );
  const environments = useApiQuery('environments', (client, signal) =>
    environmentsApi.list(client, { signal }),
  );
  return { policies, apiKeys, agentGroups, environments };
}
