import { apisApi } from '../../../api/apis-endpoints.js';
import type { ApiSummary } from '../../../api/types.js';
import { agentGroupsApi } from '../../../api/endpoints.js';
import type { AgentGroup } from '../../../api/types.js';
import { useApiQuery, type ApiQuery } from '../../../hooks/use-api-query.js';

export interface ApisCatalog {
  apis: ApiQuery<ApiSummary[]>;
  agentGroups: ApiQuery<AgentGroup[]>;
}

/** Everything the APIs list shows. */
export function useApisCatalog(): ApisCatalog {
  const apis = useApiQuery('apis', (client, signal) => apisApi.list(client, { signal }));
  const agentGroups = useApiQuery('agent-groups', (client, signal) =>
    agentGroupsApi.list(client, { signal }),
  );
  return { apis, agentGroups };
}
