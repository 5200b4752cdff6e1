import { agentGroupsApi, environmentVariablesApi, environmentsApi } from '../../api/endpoints.js';
import type { AgentGroup, Environment, EnvironmentVariable } from '../../api/types.js';
import { useApiQuery, type ApiQuery } from '../../hooks/use-api-query.js';

export interface EnvironmentCatalog {
  variables: ApiQuery<EnvironmentVariable[]>;
  environments: ApiQuery<Environment[]>;
  agentGroups: ApiQuery<AgentGroup[]>;
}

/** Everything the environment variables screen shows: variables, environments and agent groups. */
export function useEnvironmentCatalog(): EnvironmentCatalog {
  const variables = useApiQuery('environment-variables', (client, signal) =>
    environmentVariablesApi.list(client, { signal }),
  );
  const environments = useApiQuery('environments', (client, signal) =>
    environmentsApi.list(client, { signal }),
  );
  const agentGroups = useApiQuery('agent-groups', (client, signal) =>
    agentGroupsApi.list(client, { signal }),
  );
  return { variables, environments, agentGroups };
}
