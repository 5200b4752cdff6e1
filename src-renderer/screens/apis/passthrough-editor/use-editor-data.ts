import { isProblem } from '../../../api/api-errors.js';
import { apisApi } from '../../../api/apis-endpoints.js';
import type { ApiDefinition } from '../../../api/types.js';
import { agentGroupsApi, environmentVariablesApi, policiesApi } from '../../../api/endpoints.js';
import { passthroughApi } from '../../../api/passthrough-endpoints.js';
import type { Passthrough } from '../../../api/types.js';
import type { AgentGroup, EnvironmentVariable, Policy } from '../../../api/types.js';
import { useApiQuery, type ApiQuery } from '../../../hooks/use-api-query.js';

export interface EditorData {
  api: ApiQuery<ApiDefinition>;
  /** `null`: the API has no Passthrough configuration yet. */
  passthrough: ApiQuery<Passthrough | null>;
  /** For the `#env` references offered while typing. */
  variables: ApiQuery<EnvironmentVariable[]>;
  /** To warn about legacy agent groups before saving. */
  agentGroups: ApiQuery<AgentGroup[]>;
  /** To tell whether a policy already admits requests to the API. */
  policies: ApiQuery<Policy[]>;
}

/** What the Passthrough editor needs: the API with its operations, its configuration, variables, groups, policies. */
export function useEditorData(apiId: string, canReadPolicies: boolean): EditorData {
  const api = useApiQuery(`api:${apiId}`, (client, signal) => apisApi.get(client, apiId, { signal }));
  const passthrough = useApiQuery(`passthrough:${apiId}`, async (client, signal) => {
    try {
      return await passthroughApi.get(client, apiId, { signal });
    } catch (error) {
      if (isProblem(error, 'GH_ERR_NOT_FOUND')) return null;
      throw error;
    }
  });
  const variables = useApiQuery('environment-variables', (client, signal) =>
    environmentVariablesApi.list(client, { signal }),
  );
  const agentGroups = useApiQuery('agent-groups', (client, signal) =>
    agentGroupsApi.list(client, { signal }),
  );
  const policies = useApiQuery(canReadPolicies ? 'policies' : null, (client, signal) =>
    policiesApi.list(client, { signal }),
  );
  return { api, passthrough, variables, agentGroups, policies };
}
