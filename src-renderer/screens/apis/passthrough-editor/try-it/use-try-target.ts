import { apisApi } from '../../../../api/apis-endpoints.js';
import { agentGroupsApi } from '../../../../api/endpoints.js';
import { useApiQuery } from '../../../../hooks/use-api-query.js';

export interface TryTargetInfo {
  /** The API's base path, once loaded: the panel sends full paths, so a path is never read two ways. */
  basePath: string | undefined;
  /** The API's cross-platform agent groups, in the API's order. */
  agentGroups: { id: string; name: string }[];
}

/** Where "Try it" requests of an API go: its base path and the agent groups that can serve them. */
export function useTryTarget(apiId: string): TryTargetInfo {
  const api = useApiQuery(`try-it-api ${apiId}`, (client, signal) => apisApi.get(client, apiId, { signal }));
  const groups = useApiQuery('try-it-agent-groups', (client, signal) =>
    agentGroupsApi.list(client, { signal }),
  );
  const all = groups.data ?? [];
  const agentGroups = (api.data?.agentGroupIds ?? []).flatMap((id) => {
    const group = all.find((candidate) => candidate.id === id);
    return group && group.platform === 'cross-platform' ? [{ id: group.id, name: group.name }] : [];
  });
  return { basePath: api.data?.basePath, agentGroups };
}
